"""What an ``auto_functionalized_v2`` call of a higher-order op reads (its ``operandN`` arguments,
from the schema it carries) and whether that overlaps what it writes (its bases): a ``cond``
whose branch writes a captured input, with an operand Inductor's noop removal merged into that
input (fuzz p1704)."""
import torch

from graphs import post_grad

from rewrite.analysis.facts import functionalized
from rewrite.analysis.graph_facts import GraphFacts


def operand_is_clone_of_written_input(x, y):
    t = x.clone()

    def true_fn(p):
        x[0, 1] = -2.0
        return p + 1

    return torch.cond(y.sum() > 0, true_fn, lambda p: p.clone(), (t,))


def operand_is_computed(x, y):
    t = x * 2

    def true_fn(p):
        x[0, 1] = -2.0
        return p + 1

    return torch.cond(y.sum() > 0, true_fn, lambda p: p.clone(), (t,))


def v2_call(gm):
    (call,) = [n for n in gm.graph.nodes if functionalized.is_functionalized_hop_v2(n)]
    return call


def test_a_cond_operand_merged_into_the_input_its_branch_writes_overlaps_the_write():
    gm = post_grad(operand_is_clone_of_written_input, torch.arange(6.0).reshape(2, 3), torch.ones(2))
    call = v2_call(gm)
    (x,) = [n for n in gm.graph.nodes if n.op == "placeholder" and n in call.kwargs["_all_bases"]]
    reads = dict(functionalized.read_only_arguments(call))
    assert reads.get("operand0") is x            # the clone is gone: the operand is the input
    verdict = GraphFacts(gm.graph).operands_overlap_write(call)
    assert verdict.value and "overlaps" in verdict.why


def test_a_computed_cond_operand_does_not_overlap_the_write():
    gm = post_grad(operand_is_computed, torch.arange(6.0).reshape(2, 3), torch.ones(2))
    call = v2_call(gm)
    assert not functionalized.is_any_functionalized_call(call)    # a higher-order op, not an OpOverload
    assert "operand0" in dict(functionalized.read_only_arguments(call))
    assert not GraphFacts(gm.graph).operands_overlap_write(call).value


# --------------------------------------------------------------------------- stale reads
# ``stale_reads`` runs on the graph AOTAutograd made (the joint pass), before Inductor's passes.


def aot_graph(fn, *inputs) -> torch.fx.GraphModule:
    from torch._dynamo.backends.common import aot_autograd

    graphs = []

    def keep(gm, _):
        graphs.append(gm)
        return gm

    torch._dynamo.reset()
    with torch.inference_mode():
        torch.compile(fn, backend=aot_autograd(fw_compiler=keep), fullgraph=True)(*inputs)
    return graphs[0]


def aliased_inputs():
    base = torch.arange(7.0)
    return base[0:6], base[1:7]


def own_base_read_after_write(x):           # fuzz seed 197 p55's shape: the operand is the base
    o = x[1:3]

    def true_fn(p):
        o[0] = 2.0
        return p + 1

    return torch.cond(x.sum() > 0, true_fn, lambda p: p * 0, (x,))


def own_base_read_before_write(x):
    o = x[1:3]

    def true_fn(p):
        r = p + 1
        o[0] = 2.0
        return r

    return torch.cond(x.sum() > 0, true_fn, lambda p: p * 0, (x,))


def own_base_late_read_unused(x):          # p1830's shape: the late read's result is never read
    o = x[1:3]

    def true_fn(p):
        o[0] = 2.0
        return p.clone()

    torch.cond(x.sum() > 0, true_fn, lambda p: p * 0, (x,))
    return x * 2


def own_base_rows_read_after_write(rows):  # fuzz seed 199 p71's shape: read x[rows] after x[3:4] = -1
    def fn(x):
        o = x[3:4]

        def true_fn(p):
            o[0] = -1.0
            return p[rows] * 2

        return torch.cond(x.sum() > 0, true_fn, lambda p: p[rows] * 0, (x,))

    return fn


def view_of_base_read_after_write(x0, x1):  # fuzz seed 199 p57: x1[0] is x0[1]
    def true_fn(p):
        x1[0] = -1.0
        return p + 1

    return torch.cond(x0.sum() > 0, true_fn, lambda p: p * 0, (x0,))


def view_of_base_read_after_whole_write(x0, x1):   # the epilogue writes x1: stock is wrong too
    def true_fn(p):
        x1.add_(1.0)
        return p.sum(0, keepdim=True)

    return torch.cond(x0.sum() > 0, true_fn, lambda p: p.sum(0, keepdim=True), (x0,))


def stale(fn, *inputs):
    from rewrite.analysis.semantics import stale_reads

    gm = aot_graph(fn, *inputs)
    calls = [n for n in gm.graph.nodes if functionalized.is_functionalized_hop_v2(n)]
    assert len(calls) == 1
    return stale_reads.stale_operands(calls[0])


def test_a_branch_reading_its_own_base_after_writing_it_is_found():
    assert stale(own_base_read_after_write, torch.arange(8.0)[::2]) == {"operand0"}


def test_a_read_before_the_write_or_never_used_is_no_stale_read():
    assert stale(own_base_read_before_write, torch.arange(8.0)[::2]) == set()
    assert stale(own_base_late_read_unused, torch.arange(8.0)[::2]) == set()


def test_an_operand_that_only_views_a_base_is_left_to_reinplacing_of_a_scatter_only():
    assert stale(view_of_base_read_after_write, *aliased_inputs()) == set()
    assert stale(view_of_base_read_after_whole_write, *aliased_inputs()) == set()   # stock is wrong too


def test_a_read_of_elements_apart_from_the_write_is_no_stale_read():
    x = torch.arange(6.0)
    assert stale(own_base_rows_read_after_write(slice(1, 3)), x) == set()
    assert stale(own_base_rows_read_after_write(slice(2, 4)), x) == {"operand0"}
    assert stale(own_base_rows_read_after_write(slice(1, 3)), torch.arange(12.0)[::2]) == set()
    assert stale(own_base_rows_read_after_write(slice(3, 5)), torch.arange(12.0)[::2]) == {"operand0"}


def own_base_read_through_dtype_view(x):   # view.dtype reinterprets bytes: never replayed
    o = x[2:3]

    def true_fn(p):
        o[0] = -1.0
        return p.view(torch.int32)[2:3] * 2

    return torch.cond(x.sum() > 0, true_fn, lambda p: p.view(torch.int32)[2:3] * 0, (x,))


def test_a_read_through_a_view_that_depends_on_layout_is_never_proven_apart():
    assert stale(own_base_read_through_dtype_view, torch.arange(6.0)) == {"operand0"}
