"""The analyses behind the predicates, on traced post-grad graphs and hand-built ones."""
import torch
import torch.fx as fx

from graphs import dynamo_graph, node, nodes, placeholders, post_grad
from rewrite.analysis.graph_facts import GraphFacts, subgraph_written_placeholders
from rewrite.analysis.facts.mutation import is_copy, view_source, written_operands


def slice_then_index(field, delta, indices, gain):
    field[1:-1].add_(delta)
    values = torch.index_select(field, 0, indices) * gain
    field.index_copy_(0, indices, values)


def case2_graph():
    return post_grad(slice_then_index, torch.randn(16), torch.randn(14), torch.tensor([0, 3]), torch.tensor(2.0))


def test_views_of_an_input_share_its_storage_and_computed_values_do_not():
    gm = case2_graph()
    facts = GraphFacts(gm.graph)
    field = placeholders(gm)[0]
    sl = node(gm, "aten.slice")
    add = node(gm, "aten.add")
    assert facts.same_storage(sl, field) and facts.is_view(sl)
    assert not facts.same_storage(add, field) and not facts.is_view(add)
    assert sl in facts.aliases(field)
    assert view_source(sl) is field


def test_tensor_attributes_that_view_are_views_in_a_dynamo_graph():
    """Dynamo records ``x.mT`` as ``getattr(x, "mT")`` (fuzz seed 37 p172: the while_loop
    dependency took ``x`` and ``x.mT[:, 2]`` for aliased inputs)."""
    def f(x):
        return x.mT[:, 2].sum() + x.T.sum() + x.shape[0]

    gm = dynamo_graph(f, torch.zeros(5, 4))
    [x] = placeholders(gm)
    attrs = [n for n in gm.graph.nodes if n.op == "call_function" and n.target is getattr]
    assert {a.args[1] for a in attrs} >= {"mT", "T"}
    assert all(view_source(a) is x for a in attrs if a.args[1] in ("mT", "T"))
    assert all(view_source(a) is None for a in attrs if a.args[1] not in ("mT", "T", "H", "mH", "real", "imag"))


def test_copy_back_epilogue_found_for_the_mutated_input_only():
    gm = case2_graph()
    facts = GraphFacts(gm.graph)
    field, delta = placeholders(gm)[:2]
    put = node(gm, "aten.index_put")
    copy = facts.copy_back(field)
    assert copy is not None and is_copy(copy) and copy.args[1] is put
    assert facts.copy_back(field, put) is copy
    assert facts.copy_back(field, node(gm, "aten.slice_scatter")) is None
    assert facts.copy_back(delta) is None
    assert written_operands(copy) == [field]


def test_copy_back_into_a_different_input_is_not_a_copy_back_of_the_first():
    def f(a, b, d):
        t = a.clone()
        t[1:-1].add_(d)
        b.copy_(t)

    gm = post_grad(f, torch.randn(8), torch.randn(8), torch.randn(6))
    facts = GraphFacts(gm.graph)
    scatter = node(gm, "aten.slice_scatter")
    a = scatter.args[0]                     # the joint-graph passes drop the clone: a itself
    copied = [p for p in placeholders(gm) if facts.copy_back(p) is not None]
    assert a.op == "placeholder" and facts.copy_back(a) is None
    assert len(copied) == 1 and copied[0] is not a
    assert facts.copy_back(copied[0], scatter) is not None


def test_copy_back_through_a_view_of_the_input():
    g = fx.Graph()
    x = g.placeholder("x")
    v = g.call_function(torch.ops.aten.slice.Tensor, (x, 0, 0, 2))
    y = g.placeholder("y")
    c = g.call_function(torch.ops.aten.copy_.default, (v, y))
    g.output(())
    facts = GraphFacts(g)
    assert facts.copy_back(x) is c
    assert facts.copy_back(y) is None


def test_alias_read_after_the_candidate_is_found_with_its_reader():
    def f(x, d):
        old = x[2:5]
        x[1:-1].add_(d)
        return old.clone() if False else x.sum()

    def g(x, d):
        x[1:-1].add_(d)
        return x * 2

    gm = post_grad(g, torch.randn(8), torch.randn(6))
    facts = GraphFacts(gm.graph)
    x = placeholders(gm)[0]
    scatter = node(gm, "aten.slice_scatter")
    copy = facts.copy_back(x)
    # x * 2 reads the new value through the scatter, not x itself: no old-value read in between.
    assert not facts.alias_used_between(x, scatter, copy)

    # A read of the old value placed after the scatter (hand-built) is found, with the reader named.
    with gm.graph.inserting_after(scatter):
        late = gm.graph.call_function(torch.ops.aten.slice.Tensor, (x, 0, 0, 3))
    with gm.graph.inserting_after(late):
        reader = gm.graph.call_function(torch.ops.aten.sum.default, (late,))
    facts = GraphFacts(gm.graph)
    assert facts.alias_used_between(x, scatter, copy)
    assert reader.name in facts.alias_used_between(x, scatter, copy).why
    assert not facts.alias_used_between(x, scatter, copy, exclude=[reader])


def test_used_after_sees_reads_through_views():
    gm = case2_graph()
    facts = GraphFacts(gm.graph)
    scatter = node(gm, "aten.slice_scatter")
    index = node(gm, "aten.index")
    put = node(gm, "aten.index_put")
    assert facts.used_after(scatter, index)          # index_put reads it later
    assert not facts.used_after(scatter, put)        # the index_put is its last reader


def test_realized_inputs_outputs_and_externs():
    def f(a, b):
        m = a @ b
        return (m + 1).relu()

    gm = post_grad(f, torch.randn(4, 4), torch.randn(4, 4))
    facts = GraphFacts(gm.graph)
    mm = node(gm, "aten.mm")
    add = node(gm, "aten.add")
    relu = node(gm, "aten.relu")
    assert facts.realized(placeholders(gm)[0])
    assert facts.realized(relu)                      # graph output
    assert not facts.realized(add)                   # fusable intermediate
    assert not facts.realized(mm)                    # not without the fact table...
    assert facts.realized(mm, {"extern": frozenset({torch.ops.aten.mm})})  # ...which says mm is extern


def test_layout_mismatch_dtype_and_strides():
    def f(x, y):
        return x + 1, y.t() + 1, x.to(torch.float64)

    gm = post_grad(f, torch.randn(4, 4), torch.randn(4, 4))
    facts = GraphFacts(gm.graph)
    x, y = placeholders(gm)
    perm = node(gm, "aten.permute")
    conv = nodes(gm, "prims.convert_element_type") or nodes(gm, "aten._to_copy")
    assert facts.same_layout(x, y)
    assert not facts.same_layout(x, perm)            # strides differ
    assert not facts.same_layout(x, conv[0])         # dtype differs


def test_overlap_of_a_shift_and_of_disjoint_halves():
    def shift(x):
        x[1:].copy_(x[:-1].clone())

    g = fx.Graph()
    x = g.placeholder("x")
    a = g.call_function(torch.ops.aten.slice.Tensor, (x, 0, 1, 8))
    b = g.call_function(torch.ops.aten.slice.Tensor, (x, 0, 0, 7))
    c = g.call_function(torch.ops.aten.slice.Tensor, (x, 0, 0, 4))
    d = g.call_function(torch.ops.aten.slice.Tensor, (x, 0, 4, 8))
    e = g.call_function(torch.ops.aten.expand.default, (g.call_function(torch.ops.aten.slice.Tensor, (x, 0, 0, 1)), [8]))
    g.output(())
    from torch._subclasses import FakeTensorMode

    with FakeTensorMode() as mode:
        xv = torch.empty(8)
        x.meta["val"] = xv
        for n, v in ((a, xv[1:]), (b, xv[:7]), (c, xv[:4]), (d, xv[4:]), (e, xv[:1].expand(8))):
            n.meta["val"] = v
    facts = GraphFacts(g)
    assert facts.may_overlap(a, b)
    assert not facts.may_overlap(c, d)
    assert facts.internal_overlap(e) and not facts.internal_overlap(c)


def test_source_aliasing_the_scatter_destination_is_an_overlapping_operand():
    def shift(x):
        x[1:] = x[:-1] * 1  # a fresh value: no overlap

    gm = post_grad(shift, torch.randn(8))
    facts = GraphFacts(gm.graph)
    assert not facts.operands_overlap_write(node(gm, "aten.slice_scatter"))

    # Hand-built: the scatter's source is a view of its own base that overlaps the destination.
    g = fx.Graph()
    x = g.placeholder("x")
    src = g.call_function(torch.ops.aten.slice.Tensor, (x, 0, 0, 7))
    sc = g.call_function(torch.ops.aten.slice_scatter.default, (x, src, 0, 1, 8))
    far = g.call_function(torch.ops.aten.slice.Tensor, (x, 0, 0, 2))
    sc2 = g.call_function(torch.ops.aten.slice_scatter.default, (x, far, 0, 6, 8))
    g.output((sc, sc2))
    from torch._subclasses import FakeTensorMode

    with FakeTensorMode():
        xv = torch.empty(8)
        x.meta["val"], src.meta["val"], far.meta["val"] = xv, xv[:7], xv[:2]
        sc.meta["val"], sc2.meta["val"] = torch.empty(8), torch.empty(8)
    facts = GraphFacts(g)
    assert facts.operands_overlap_write(sc)
    assert not facts.operands_overlap_write(sc2)


def test_mutated_captured_inputs_of_while_loop_subgraphs():
    def f(state, other):
        def cond(i, acc):
            state.mul_(0.5)
            return i < 2

        def body(i, acc):
            return i + 1, acc + state + other

        return torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64), torch.zeros_like(state)))

    with torch.inference_mode():  # Dynamo refuses captured-input mutation in loops when grad is on
        gm = dynamo_graph(f, torch.ones(3), torch.ones(3))
    loop = next(n for n in gm.graph.nodes if n.target is torch.ops.higher_order.while_loop)
    cond_attr, body_attr, carried, captured = loop.args[:4]
    facts = GraphFacts(gm.graph, "dynamo")
    state = next(c for c in captured if "state" in c.name)
    other = next(c for c in captured if "other" in c.name)
    assert facts.subgraph_mutates(gm, cond_attr, state)
    assert not facts.subgraph_mutates(gm, body_attr, state)
    assert not facts.subgraph_mutates(gm, cond_attr, other)
    written = subgraph_written_placeholders(getattr(gm, cond_attr.target))
    assert len(written) == 1


def test_saved_for_backward_from_fact_table():
    def f(a, b):
        m = a @ b
        e = m.exp()
        s = m.sin()
        return e + 1, s

    a = torch.randn(4, 4, requires_grad=True)
    gm = post_grad(f, a, torch.randn(4, 4), kind="forward")
    facts = GraphFacts(gm.graph, "forward")
    table = {"output": frozenset({torch.ops.aten.exp}), "input": frozenset({torch.ops.aten.sin})}
    exp = node(gm, "aten.exp")
    mm = node(gm, "aten.mm")
    assert facts.saved_for_backward(exp, table)      # exp keeps its output
    assert facts.saved_for_backward(mm, table)       # sin keeps its input, which is mm
    assert not facts.saved_for_backward(placeholders(gm)[1], table)
    assert not GraphFacts(gm.graph, "inference").saved_for_backward(exp, table)


def test_inverse_views_and_mismatched_view_chains():
    def f(x, d):
        x.t()[1].add_(d)

    gm = post_grad(f, torch.randn(4, 3), torch.randn(4))
    facts = GraphFacts(gm.graph)
    first, back = nodes(gm, "aten.permute")[:2]
    assert facts.undoes_view(back, first)            # permute([1, 0]) twice is the identity

    g = fx.Graph()
    x = g.placeholder("x")
    p1 = g.call_function(torch.ops.aten.permute.default, (x, [1, 2, 0]))
    p2 = g.call_function(torch.ops.aten.permute.default, (p1, [1, 2, 0]))   # not the inverse
    p3 = g.call_function(torch.ops.aten.permute.default, (p1, [2, 0, 1]))   # the inverse
    v1 = g.call_function(torch.ops.aten.view.default, (x, [2, 12]))
    v2 = g.call_function(torch.ops.aten.view.default, (v1, [2, 3, 4]))
    v3 = g.call_function(torch.ops.aten.view.default, (v1, [4, 3, 2]))      # same numel, other shape
    g.output(())
    from torch._subclasses import FakeTensorMode

    with FakeTensorMode():
        xv = torch.empty(2, 3, 4)
        x.meta["val"] = xv
        for n in (p1, p2, p3, v1, v2, v3):
            src = n.args[0].meta["val"]
            n.meta["val"] = n.target(src, *n.args[1:])
    facts = GraphFacts(g)
    assert facts.undoes_view(p3, p1) and not facts.undoes_view(p2, p1)
    assert facts.undoes_view(v2, v1) and not facts.undoes_view(v3, v1)
    assert "gives" in facts.undoes_view(v3, v1).why


def test_realized_before_copy_counts_the_loads_of_the_lazy_computation():
    """Inductor's realize_hint computes a copied value first when it loads from more than one
    place; scatters (the `buffered` ops) are buffers, read by one load."""
    def one_load(x):
        x.view(3, 5).copy_(x.t().sigmoid())

    def two_loads(x, y):
        x.copy_(x.flip(0) + y)

    def through_index_put(x, i, z):
        x.index_put_((i,), z)
        x.copy_(x.flip(0))

    buffered = {"buffered": frozenset({torch.ops.aten.index_put})}
    for fn, args, realized, hazard in [
            (one_load, (torch.randn(5, 3),), False, True),
            (two_loads, (torch.randn(4, 2), torch.randn(4, 2)), True, True),
            (through_index_put, (torch.randn(4, 2), torch.tensor([2, 0]), torch.randn(2, 2)), False, False)]:
        gm = post_grad(fn, *args)
        facts = GraphFacts(gm.graph, materialized=buffered)
        copy_back = [n for n in gm.graph.nodes if n.target is torch.ops.aten.copy_.default][-1]
        verdict = facts.realized_before_copy(copy_back.args[1])
        assert bool(verdict) is realized, (fn.__name__, verdict.why)
        assert bool(facts.lowering_hazard_inside(copy_back)) is hazard, fn.__name__
    # the legality check's model keeps index_put possibly lazy: the copy-back may read x flipped
    assert facts.lowering_hazard(copy_back)
