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
