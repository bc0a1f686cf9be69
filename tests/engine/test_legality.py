"""The legality check under every rewrite: rule files that use each shipped action wrongly
(writing into an input the program never mutates, into a tensor saved for backward, over a
value read later...) are refused, with the hazard named, and the program stays right."""
import operator
import textwrap

import pytest
import torch

from graphs import dynamo_graph, post_grad
import copy
import sys
from pathlib import Path

from rewrite.analysis.facts.op_facts import MATERIALIZED_COPY
from rewrite.analysis.semantics import layout_maps as lm
from rewrite.analysis.facts import op_facts
from rewrite.analysis.legality import Legality, functional_reading_not_the_programs
from rewrite.engine.ruleset import DependencyError, RuleSet

ROOT = Path(__file__).resolve().parents[2]


def load(tmp_path, text: str) -> RuleSet:
    path = tmp_path / "wrong.rules"
    path.write_text(textwrap.dedent(text))
    return RuleSet.load([path], strict=True)


def refused(report, rule: str):
    [cand] = [c for c in report.candidates if c.rule == rule]
    assert cand.stopped_at == "legality", cand.line()
    return cand.reason


def run(gm, inputs, calls=3):
    with torch.inference_mode():
        return [gm(*inputs) for _ in range(calls)]


def same_as_eager(fn, gm, make_inputs):
    eager_in, graph_in = make_inputs(), make_inputs()
    with torch.inference_mode():
        for _ in range(3):
            want, got = fn(*eager_in), gm(*graph_in)
            want = want if isinstance(want, tuple) else (want,)
            assert all(torch.equal(a, b) for a, b in zip(want, got))
            assert all(torch.equal(a, b) for a, b in zip(eager_in, graph_in))


def add_inputs():
    return torch.arange(6.0), torch.ones(6)


def test_reinplace_into_an_input_never_mutated(tmp_path):
    def f(x, d):
        return x + d

    gm = post_grad(f, *add_inputs())
    before = gm.code
    rs = load(tmp_path, """
        rule into_input
          match   y = aten.add.Tensor(x: input, other)
          rewrite reinplace(y)
        """)
    reason = refused(rs.apply(gm), "into_input")
    assert "writes into input `arg0_1`, which the program never mutates" in reason
    assert gm.code == before
    same_as_eager(f, gm, add_inputs)


def test_result_pattern_writing_an_input_never_mutated(tmp_path):
    def f(x, d):
        return x + d

    gm = post_grad(f, *add_inputs())
    rs = load(tmp_path, """
        rule build_add_
          match   y = aten.add.Tensor(x: input, other)
          rewrite m = aten.add_.Tensor(x, other); replace_uses(y, m)
        """)
    reason = refused(rs.apply(gm), "build_add_")
    assert "writes into input `arg0_1`, which the program never mutates" in reason
    same_as_eager(f, gm, add_inputs)


def test_erase_of_a_copy_back_that_carries_data(tmp_path):
    """Erasing the copy-back alone is refused by validation (no new write of `x` takes it over);
    with an in-place write of `x` that takes it over but writes the wrong value, by legality."""
    def f(x, d):
        x.add_(d)
        x.mul_(2.0)

    gm = post_grad(f, *add_inputs())
    rs = load(tmp_path, """
        rule drop_copy_back
          match   c = aten.copy_(dst: input, src)
          rewrite erase(c)
        """)
    [cand] = rs.apply(gm).candidates
    assert cand.stopped_at == "rewrite" and "no node the rewrite adds takes that write over" in cand.reason
    rs = load(tmp_path, """
        rule drop_copy_back
          match   c = aten.copy_(dst: input, src: aten.mul.Tensor(a: aten.add.Tensor(dst, d), 2.0))
          rewrite reinplace(a); erase(c)
        """)
    reason = refused(rs.apply(gm), "drop_copy_back")
    assert "leaves input `arg0_1` with a different final value" in reason
    same_as_eager(f, gm, add_inputs)


def test_replace_uses_with_another_value(tmp_path):
    def f(x, d):
        return x * 2 + d

    gm = post_grad(f, *add_inputs())
    rs = load(tmp_path, """
        rule skip_mul
          match   y = aten.mul.Tensor(x: input, 2)
          rewrite replace_uses(y, x)
        """)
    reason = refused(rs.apply(gm), "skip_mul")
    assert reason.startswith("output 0 would change")
    same_as_eager(f, gm, add_inputs)


def test_write_moved_before_a_read_of_the_old_value(tmp_path):
    def f(x, z):
        r = x * 2
        x.copy_(z)
        return r

    gm = post_grad(f, *add_inputs())
    rs = load(tmp_path, """
        rule write_early
          match   m = aten.mul.Tensor(x: input, _)
          rewrite move_before(copy_back(x), m)
        """)
    reason = refused(rs.apply(gm), "write_early")
    assert "`mul` (aten.mul) reads `arg0_1`" in reason and "after `copy_" in reason and "overwrote it" in reason
    same_as_eager(f, gm, add_inputs)


def test_write_moved_before_a_read_through_a_split():
    """``getitem(split(x), i)`` is a view of ``x`` (``split``'s schema returns ``Tensor(a)[]``,
    which torch prints as ``List[Tensor]``): a write of ``x`` moved before it is a write the
    read sees, and the check refuses it as such."""
    def f(x, z):
        r = x.split(2)[1] * 2
        x.copy_(z)
        return r

    for op in (torch.ops.aten.split.Tensor, torch.ops.aten.unbind.int, torch.ops.aten.chunk.default):
        assert op_facts.returns_view_list(op)
    gm = post_grad(f, *add_inputs())
    [x, _] = [n for n in gm.graph.nodes if n.op == "placeholder"]
    [item] = [n for n in gm.graph.nodes if n.target is operator.getitem]
    assert op_facts.alias_source(item) is x and lm.chain_to(item)[0] is x
    legality = Legality.for_graph(gm.graph)
    [old] = [n for n in gm.graph.nodes if n.target == torch.ops.aten.copy_.default]
    [mul] = [n for n in gm.graph.nodes if n.target == torch.ops.aten.mul.Tensor]
    with gm.graph.inserting_before(mul):
        new = gm.graph.call_function(torch.ops.aten.copy_.default, old.args)
    new.meta.update(old.meta)
    legality.note_new_node(new)
    verdict = legality.check([new], [old], {})
    assert not verdict and "`mul` (aten.mul) reads" in verdict.why and "overwrote it" in verdict.why


def test_items_of_a_rewired_split_follow_its_new_operand():
    """Rewiring ``split``'s operand moves its items with it: the alias index forgets their
    chains (the items' source is what the list op reads, not the list op)."""
    from rewrite.analysis.semantics.aliases import AliasIndex

    def f(x, z):
        y = x * 2
        return y.split(2)[1] + 1, z * 3

    gm = post_grad(f, *add_inputs())
    x, z = [n for n in gm.graph.nodes if n.op == "placeholder"]
    [split] = [n for n in gm.graph.nodes if n.target == torch.ops.aten.split.Tensor]
    [item] = [n for n in gm.graph.nodes if n.target is operator.getitem]
    index = AliasIndex(gm.graph)
    assert index.root(item) is split.args[0]
    split.args = (z, *split.args[1:])
    index.changed([split])
    assert index.root(item) is z


def test_reinplace_over_a_value_read_later(tmp_path):
    def f(x, d):
        old = x.clone()
        x[1:3].add_(d[1:3])
        return old + 1

    gm = post_grad(f, *add_inputs())
    rs = load(tmp_path, """
        rule scatter_in_place
          match   s = aten.slice_scatter(base: input, src, ...)
          rewrite reinplace(s); erase(copy_back(base))
        """)
    reason = refused(rs.apply(gm), "scatter_in_place")
    assert "reads `arg0_1`" in reason and "overwrote it" in reason
    same_as_eager(f, gm, add_inputs)


def test_reinplace_path_over_a_value_read_later(tmp_path):
    def f(x, d, i):
        old = x.clone()
        x[1:3].add_(d[1:3])
        x.index_put_((i,), d[:2])
        return old + 1

    make = lambda: (torch.arange(6.0), torch.ones(6), torch.tensor([0, 5]))  # noqa: E731
    gm = post_grad(f, *make())
    rs = load(tmp_path, """
        opset step = aten.index_put
        rule chain_in_place
          match   s = aten.slice_scatter(base: input, src, ...)
          path    p = s ->* last through u: step when u.args[0] is current
          rewrite reinplace(s); reinplace_path(p); erase(copy_back(base))
        """)
    reason = refused(rs.apply(gm), "chain_in_place")
    assert "overwrote it" in reason
    same_as_eager(f, gm, make)


def test_materialize_and_privatize_a_destination(tmp_path):
    """Giving a copy-back a private copy of its destination would leave the input unwritten:
    refused.  Materializing the destination redirects its reads only (the copy-back still writes
    the input), so the program stays right."""
    def f(x, d):
        x.add_(d)

    gm = post_grad(f, *add_inputs())
    rs = load(tmp_path, """
        rule redirect
          match   c = aten.copy_(dst: input, src)
          rewrite privatize(c)
        """)
    reason = refused(rs.apply(gm), "redirect")
    assert "leaves input `arg0_1` with a different final value" in reason
    same_as_eager(f, gm, add_inputs)

    gm = post_grad(f, *add_inputs())
    rs = load(tmp_path, """
        rule redirect
          match   c = aten.copy_(dst: input, src)
          where   not is_materialized(src)
          rewrite materialize(dst)
        """)
    report = rs.apply(gm)
    copy_back = [n for n in gm.graph.nodes if n.target is torch.ops.aten.copy_.default]
    assert copy_back and all(n.args[0].op == "placeholder" for n in copy_back), report
    same_as_eager(f, gm, add_inputs)


def test_write_into_a_tensor_saved_for_backward(tmp_path):
    def f(a, b, c):
        return (a @ b) * c

    make = lambda: tuple(torch.randn(4, 4, requires_grad=True) for _ in range(3))  # noqa: E731
    gm = post_grad(f, *make(), kind="forward")
    mm = next(n for n in gm.graph.nodes if n.op == "call_function" and "mm" in str(n.target))
    assert mm in gm.graph.output_node().args[0]            # kept for the backward of `* c`
    rs = load(tmp_path, """
        rule into_mm
          stage   forward
          match   y = aten.mul.Tensor(m: aten.mm(_, _), other)
          rewrite reinplace(y)
        """)
    reason = refused(rs.apply(gm, graph_kind="forward"), "into_mm")
    assert "would change" in reason


def test_dependency_that_misses_a_mutation_fails_loudly(tmp_path):
    """A dependency whose `mutates` clause misses a mutated tensor leaves a subgraph writing its
    input: the rewrite is refused and compilation stops (a skipped dependency loses a write)."""
    def f(a, b):
        def cond(i):
            return i < 2

        def body(i):
            a.add_(1.0)
            b.add_(1.0)
            return (i + 1,)

        return torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64),))

    with torch.inference_mode():
        gm = dynamo_graph(f, torch.zeros(2), torch.zeros(2))
    rs = load(tmp_path, """
        dependency half
          on       w = higher_order.while_loop(cond_fn, body_fn, carried, captured, ...)
          mutates  captured[i] when i == 0
          order    copy_back(captured[i]) after w
          via      thread_as_carried(w)
        """)
    with pytest.raises(DependencyError, match=r"still writes its input"):
        rs.apply(gm, graph_kind="dynamo")


def _loop_writing_its_capture(a):
    def cond(i):
        return i < 2

    def body(i):
        a.add_(1.0)
        return (i + 1,)

    return torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64),))


def _refused_dependency(tmp_path, fallback: str):
    """A loop dependency whose action (a cond's) cannot apply to a while_loop, with ``fallback``."""
    return load(tmp_path, f"""
        dependency half
          on       w = higher_order.while_loop(cond_fn, body_fn, carried, captured, ...)
          mutates  captured[i] when i == 0
          order    copy_back(captured[i]) after w
          via      return_from_branches(w)
          fallback {fallback}
        """)


def test_dependency_with_compiler_fallback_leaves_the_op(tmp_path):
    """`fallback compiler`: the same refused rewrite leaves the graph as it was, and says so."""
    with torch.inference_mode():
        gm = dynamo_graph(_loop_writing_its_capture, torch.zeros(2))
    before = gm.code
    rs = load(tmp_path, """
        dependency none_of_them
          on       w = higher_order.while_loop(cond_fn, body_fn, carried, captured, ...)
          mutates  captured[i] when i == 5
          order    copy_back(captured[i]) after w
          via      thread_as_carried(w)
          fallback compiler
        """)
    # i == 5 selects no captured tensor: the dependency stops at `where`, nothing to fall back from
    report = rs.apply(gm, graph_kind="dynamo")
    assert [c.stopped_at for c in report.candidates] == ["where"]
    report = _refused_dependency(tmp_path, "compiler").apply(gm, graph_kind="dynamo")
    (c,) = report.candidates
    assert c.stopped_at == "rewrite" and "left to the compiler (fallback compiler)" in c.reason
    assert not report.left_to_reference and gm.code == before


def test_dependency_with_reference_fallback_records_why(tmp_path):
    """`fallback reference`: the refused rewrite leaves the graph as it was, like `compiler`, and
    the report names the dependency (the Inductor base then compiles the graph with aot_eager)."""
    with torch.inference_mode():
        gm = dynamo_graph(_loop_writing_its_capture, torch.zeros(2))
    before = gm.code
    report = _refused_dependency(tmp_path, "reference").apply(gm, graph_kind="dynamo")
    (c,) = report.candidates
    assert c.stopped_at == "rewrite" and "left to torch's reference pipeline (fallback reference)" in c.reason
    assert len(report.left_to_reference) == 1 and report.left_to_reference[0].startswith("dependency half @ ")
    assert gm.code == before


def test_second_rewrite_sees_the_graph_as_the_first_left_it():
    """Two layers of the engine-scaling benchmark (each updates its own buffer; the activation
    flows through both; the copy-backs come last).  Checking the first layer's rewrite evaluates
    the second layer's nodes; the second rewrite then rewires them, and its check must see their
    new arguments (a view chain cached by the first check once made it refuse a right rewrite)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import engine_scaling

    gm = engine_scaling.build(2, engine_scaling.trace_layer())
    original = copy.deepcopy(gm)
    report = RuleSet.load().apply(gm, graph_kind="inference")
    assert [c.rule for c in report.fired] == ["reinplace_update_into_input"] * 2, \
        [c.line() for c in report.candidates if c.stopped_at in ("legality", "rewrite")]
    assert engine_scaling.outputs_match(original, gm, 2)


def test_each_value_is_materialized_once():
    """A value read lazily across several later writes needs one copy, not one per write (a
    copy of a copy is never needed: the first one already lives in a buffer of its own)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import engine_scaling

    gm = engine_scaling.build(1, engine_scaling.trace_layer())
    original = copy.deepcopy(gm)
    report = RuleSet.load().apply(gm, graph_kind="inference")
    assert report.fired_rules() == ["reinplace_update_into_input"]
    materialized = [n for n in gm.graph.nodes if n.target is MATERIALIZED_COPY]
    copies_of_copies = [n.name for n in materialized if n.args[0].target is MATERIALIZED_COPY]
    assert copies_of_copies == []
    gathers = [n for n in gm.graph.nodes if n.target is torch.ops.aten.index.Tensor]
    assert len(materialized) == len(gathers) == 4     # each gathered block read, copied once
    assert engine_scaling.outputs_match(original, gm, 1)


def test_privatize_of_a_private_copy_is_refused(tmp_path):
    """``privatize`` on an update that already works on a private copy is refused: another copy
    could not change anything, and a rule that privatizes unconditionally would otherwise fire on
    every sweep (the ownership net once looped this way)."""
    def f(x, v):
        t = x * 2
        t[1:3] = v
        return t

    make = lambda: (torch.arange(6.0), torch.ones(2))  # noqa: E731
    gm = post_grad(f, *make())
    rs = load(tmp_path, """
        rule private
          match   u = aten.slice_scatter(base, src, ...)
          rewrite privatize(u)
        """)
    report = rs.apply(gm)
    cands = [c for c in report.candidates if c.rule == "private"]
    assert [c.stopped_at for c in cands] == [None, "rewrite"], [c.line() for c in cands]
    assert "already works on a private copy" in cands[1].reason
    assert sum(n.target is MATERIALIZED_COPY for n in gm.graph.nodes) == 1
    same_as_eager(f, gm, make)


# --------------------------------------------------------------------------- aliasing by layout

def transposed_input():
    return (torch.arange(6.0).reshape(3, 2).t(),)


def test_write_through_contiguous_of_a_strided_input(tmp_path):
    """``contiguous`` of a transposed input is a copy: a copy-back written into it is a write
    into the copy, so erasing the real copy-back is refused (no new node writes the input)."""
    def f(x):
        x.add_(1)
        return x * 2

    gm = post_grad(f, *transposed_input())
    rs = load(tmp_path, """
        rule copy_back_through_contiguous
          match   c = aten.copy_.default(dst: input, src)
          safe    True
          rewrite t = aten.contiguous.default(dst);
                  aten.copy_.default(t, src);
                  erase(c)
        """)
    [cand] = [c for c in rs.apply(gm).candidates if c.rule == "copy_back_through_contiguous"]
    assert cand.stopped_at == "rewrite" and "no node the rewrite adds takes that write over" in cand.reason
    same_as_eager(f, gm, transposed_input)


def test_reshape_that_copies_is_not_a_view(tmp_path):
    """``x.permute(1, 0).reshape(6)`` copies (the permuted tensor cannot be viewed flat): its
    elements are in another order than ``x.view(6)``'s, which the value check must see even
    though a reshape replayed on a contiguous stand-in looks like a flat view."""
    def f(x):
        return x.view(6) * 2

    make = lambda: (torch.arange(6.0).reshape(2, 3),)  # noqa: E731
    gm = post_grad(f, *make())
    rs = load(tmp_path, """
        rule flat_through_permute
          match   v = aten.view.default(x: input, _)
          safe    True
          rewrite p = aten.permute.default(x, [1, 0]);
                  r = aten.reshape.default(p, [6]);
                  replace_uses(v, r);
                  erase(v)
        """)
    reason = refused(rs.apply(gm), "flat_through_permute")
    assert reason.startswith("output 0 would change")
    same_as_eager(f, gm, make)


def test_rewired_reshape_may_not_turn_from_view_into_copy(tmp_path):
    """In Inductor's post-grad graphs every view is a ``reshape`` (its ``view_to_reshape``).  A
    rewrite that makes one read a tensor it cannot view (a transposed input instead of a
    contiguous value) turns it into a copy; the analyses read the graph before the rewrite
    through the call's fake value, so validation refuses the change."""
    from torch._inductor.fx_passes.post_grad import view_to_reshape

    def f(x):
        y = x.contiguous()
        return y.view(6) + 1

    gm = post_grad(f, *transposed_input())
    view_to_reshape(gm)
    rs = load(tmp_path, """
        rule skip_contiguous_copy
          match   y = aten.clone.default(x: input, ...)
          safe    True
          rewrite replace_uses(y, x)
        """)
    [cand] = [c for c in rs.apply(gm).candidates if c.rule == "skip_contiguous_copy"]
    assert cand.stopped_at == "rewrite", cand.line()
    assert "would be a copy of its operand, where it was a view" in cand.reason
    same_as_eager(f, gm, transposed_input)


def test_write_through_unsafe_view_writes_its_operand(tmp_path):
    """``_unsafe_view`` shares its operand's memory though its schema does not say so: an
    in-place add into it changes the operand, which a later read sees."""
    def f(x, d):
        c = x * 2
        return c + d, c.sum()

    make = lambda: (torch.arange(6.0), torch.ones(6))  # noqa: E731
    gm = post_grad(f, *make())
    rs = load(tmp_path, """
        rule add_into_unsafe_view
          match   y = aten.add.Tensor(c: aten.mul.Tensor(x, 2), d)
          safe    True
          rewrite v = aten._unsafe_view.default(c, [6]);
                  z = aten.add.Tensor(v, d);
                  replace_uses(y, z);
                  erase(y);
                  reinplace(z)
        """)
    reason = refused(rs.apply(gm), "add_into_unsafe_view")
    assert "output 1 would change" in reason and "after `add__tensor` (aten.add_) overwrote it" in reason
    same_as_eager(f, gm, make)


# --------------------------------------------------------------------------- dtype views

def test_read_through_a_dtype_view_is_not_the_tensor(tmp_path):
    """``x.view(torch.int32) == 0`` is not ``x == 0``: -0.0 has bits of its own.  A view to a
    dtype of the same size has the identity element map, but it is another value."""
    def f(x):
        return x.view(torch.int32) == 0

    make = lambda: (torch.tensor([-0.0, 1.0, 0.0]),)  # noqa: E731
    gm = post_grad(f, *make())
    rs = load(tmp_path, """
        rule drop_dtype_view
          match   e = aten.eq.Scalar(v: aten.view.dtype(x, _), k)
          safe    True
          rewrite e2 = aten.eq.Scalar(x, k);
                  replace_uses(e, e2);
                  erase(e)
        """)
    assert refused(rs.apply(gm), "drop_dtype_view").startswith("output 0 would change")
    same_as_eager(f, gm, make)


def test_write_of_a_dtype_view_operand(tmp_path):
    """``x.add_(y.view(torch.float32))`` adds the float that ``y``'s bits are; ``add(x, y)`` adds
    the integer: the input ``x`` would end differently."""
    def f(x, y):
        x.add_(y.view(torch.float32))
        return y + 1

    def make():
        return torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.5, -2.0, 0.25]).view(torch.int32).clone()

    gm = post_grad(f, *make())
    rs = load(tmp_path, """
        rule drop_dtype_view_of_operand
          match   a = aten.add.Tensor(x: input, v: aten.view.dtype(y: input, _))
          safe    True
          rewrite a2 = aten.add.Tensor(x, y);
                  replace_uses(a, a2);
                  erase(a)
        """)
    cands = [c for c in rs.apply(gm).candidates if c.rule == "drop_dtype_view_of_operand"]
    assert [c.stopped_at for c in cands] == ["legality", "match"], [c.line() for c in cands]   # `y + 1`: no view
    assert "leaves input `arg0_1` with a different final value" in cands[0].reason
    same_as_eager(f, gm, make)


def test_private_copy_of_an_as_strided_scatter_at_a_storage_offset(tmp_path):
    """``x.as_strided(..., 0)`` of an input at storage offset 2 addresses the base's storage;
    the functional ``as_strided_scatter(x, ...)`` a copy of ``x`` starting its own.  A private
    copy of the scatter's base looks like no change to the functional reading, but it keeps the
    write at the copy's elements, where the program wrote others: refused, by name."""
    def f(x):
        x.as_strided((3,), (2,), 0).mul_(3)
        return x + 1

    make = lambda: (torch.arange(12.0)[2:8],)  # noqa: E731
    gm = post_grad(f, *make())
    rs = load(tmp_path, """
        rule private
          match   u = aten.as_strided_scatter(base, src, ...)
          rewrite privatize(u)
        """)
    reason = refused(rs.apply(gm), "private")
    assert "graph left to Inductor" in reason and "writes through a copy of its base" in reason


def offset_input_and_values():
    return torch.arange(12.0)[2:], torch.tensor([2.0, 3.0, 4.0])


def test_as_strided_of_a_fresh_value_standing_for_an_input_at_a_storage_offset(tmp_path):
    """Fuzz program 2609: after ``x[:4].copy_(...)`` the functional graph replays
    ``x.as_strided(..., 3)`` on the ``slice_scatter`` standing for ``x``, which starts a storage
    of its own where ``x`` (storage offset 2) does not.  No rule rewrites that graph (a private
    copy passed the values check and kept the functional, wrong, elements), the program stays
    right; the same graph on an input that starts its storage is rewritten."""
    def f(x, y):
        x[:4].copy_(x[2:6].clone())
        x.as_strided((3,), (2,), 3).mul_(y)

    rules = """
        rule private
          match   u = aten.slice_scatter(base, src, ...)
          rewrite privatize(u)
        """
    gm = post_grad(f, *offset_input_and_values())
    assert "a fresh tensor standing for `arg0_1`" in functional_reading_not_the_programs(gm.graph)
    report = load(tmp_path, rules).apply(gm)
    assert "graph left to Inductor" in refused(report, "private")
    assert any("left to Inductor as it is" in w for w in report.warnings)
    same_as_eager(f, gm, offset_input_and_values)

    dense = lambda: (torch.arange(10.0), torch.tensor([2.0, 3.0, 4.0]))  # noqa: E731
    gm = post_grad(f, *dense())
    assert functional_reading_not_the_programs(gm.graph) == ""
    assert "private" in load(tmp_path, rules).apply(gm).fired_rules()
    same_as_eager(f, gm, dense)


def test_as_strided_of_an_input_the_graph_never_writes_is_read_functionally():
    """A backward graph scatters into fresh tensors computed from its tangents, and a graph that
    only reads an input through ``as_strided`` reads its storage as the program does: neither is
    left to Inductor (only memory the program writes is addressed otherwise)."""
    def read_only(x):
        return (x * 2).as_strided((3,), (2,), 1) + x.as_strided((3,), (2,), 3)

    gm = post_grad(read_only, torch.arange(12.0)[2:])
    assert functional_reading_not_the_programs(gm.graph) == ""
    # the same graph as a higher-order op's function (fuzz p3577: Inductor hands the post-grad
    # passes a while_loop's functions as graphs of their own, whose inputs are operands the
    # loop may write): its input has no AOTAutograd descriptor, and is taken as written memory
    assert "a fresh tensor standing for" in functional_reading_not_the_programs(gm.graph, subgraph=True)
    [x] = [n for n in gm.graph.nodes if n.op == "placeholder"]
    del x.meta["desc"]
    assert "a fresh tensor standing for" in functional_reading_not_the_programs(gm.graph)

    # the backward of a strided fill (fuzz --n 1500 program 743,
    # inductor/training_as_strided_fill_private_copy_trusted)
    def train(x0, x1, x2, w3):
        t2 = w3 @ w3.t()
        v3 = t2.transpose(0, 1)[:, 1:2]
        t2[:, 2][1:3] = x0[1:3].sigmoid()
        t2.as_strided((5, 3), (1, 5)).masked_fill_(x0[1:4] > 0, 0.5)
        v3.diagonal()[0] = x1[0]
        return t2, v3

    base0 = torch.randint(-4, 5, (5,)).float()
    gm = post_grad(train, base0, base0, torch.randint(-4, 5, (5, 3)).float().t(),
                   torch.randint(-3, 4, (5, 5)).float().requires_grad_(), kind="backward")
    def through_a_fresh_value(node):
        node = node.args[0]
        while op_facts.alias_source(node) is not None:
            node = op_facts.alias_source(node)
        return lm.functional_update_base(node) is not None

    assert any(n.target == torch.ops.aten.as_strided.default and through_a_fresh_value(n) for n in gm.graph.nodes)
    assert functional_reading_not_the_programs(gm.graph) == ""


def test_rewiring_an_as_strided_onto_a_value_standing_for_an_input_is_refused():
    """A change after which an ``as_strided`` addresses the fresh storage of a value standing for
    an input at a storage offset is refused by the check itself, whatever the values say."""
    def f(x):
        y = x.as_strided((3,), (2,), 3) * 1
        x[:4].copy_(x[:4].clone())
        return y

    gm = post_grad(f, torch.arange(12.0)[2:])
    assert functional_reading_not_the_programs(gm.graph) == ""
    legality = Legality.for_graph(gm.graph)
    [view] = [n for n in gm.graph.nodes if n.target == torch.ops.aten.as_strided.default]
    [scatter] = [n for n in gm.graph.nodes if n.target == torch.ops.aten.slice_scatter.default]
    [mul] = list(view.users)
    old = (view.args, dict(view.kwargs))
    scatter.append(view)
    view.append(mul)
    view.args = (scatter,) + tuple(view.args[1:])
    verdict = legality.check([], [], {view: old})
    assert not verdict and "functional graph would not say what the program does" in verdict.why


@pytest.mark.parametrize("make, same_elements", [
    (lambda: torch.zeros(3, 3), True),             # laid out as the input: the same elements
    (lambda: torch.zeros(3, 3).t(), True),         # a transposed input: its permute is laid out as it
    (lambda: torch.zeros(3, 4)[:, :3], False),     # an input that does not fill its storage
])
def test_as_strided_of_a_permuted_scatter_laid_out_as_its_input(make, same_elements):
    """Fuzz seed 173 p604: after writes through ``x.diagonal()`` and ``x.transpose(0, 1)``, the
    ``as_strided`` addresses ``permute(slice_scatter(permute(...)))``: a scatter laid out
    transposed whose permute holds ``x``'s elements laid out as ``x`` is."""
    def f(x):
        x.diagonal().add_(1)
        x.transpose(0, 1)[:, 1:] = x.transpose(0, 1)[:, :-1].clone()
        return x.as_strided((2, 2), (1, 3), 1) * 1

    gm = post_grad(f, make())
    node = next(n for n in gm.graph.nodes if lm.is_as_strided_read(n))
    why = lm.functional_reading_differs(node)
    assert (why == "") == same_elements, why
    assert same_elements or "laid out otherwise" in why


@pytest.mark.parametrize("dynamic", [False, True])
def test_as_strided_backward_buffer_read_flat_is_the_programs_memory(dynamic):
    """Fuzz seed 193 p789: autograd's ``as_strided`` backward writes the gradient into
    ``full([n])`` and views it as ``as_strided([4, 5], [5, 1], 0)``; a later ``as_strided`` of a
    scatter of that view addresses the same elements as of the buffer (contiguous at offset 0,
    flat order kept; dynamically the buffer is ``Max(2, 5*s)`` long).  The check read it as laid
    out otherwise and stopped the backward graph."""
    def f(x0, x1, w):
        t1 = x1 + w[:5]
        v2 = t1.as_strided((2, 1), (1, 2))
        v2.transpose(0, 1)[:, 0] = 2.0
        t1[2:4].narrow(1, 4, 1).copy_(x0[:1].flip(0))
        return v2

    gm = post_grad(f, torch.arange(5.0), torch.arange(20.0).reshape(4, 5), torch.ones(6, requires_grad=True),
                   kind="backward", dynamic=dynamic)
    flat_views = [n for n in gm.graph.nodes if lm.is_as_strided_read(n) and lm.functional_update_base(n.args[0])]
    assert flat_views, gm.graph           # the as_strided over a scatter of the buffer's view is there
    assert functional_reading_not_the_programs(gm.graph) == ""
