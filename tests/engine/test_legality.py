"""The legality check under every rewrite: rule files that use each shipped action wrongly
(writing into an input the program never mutates, into a tensor saved for backward, over a
value read later...) are refused, with the hazard named, and the program stays right."""
import textwrap

import pytest
import torch

from graphs import dynamo_graph, post_grad
import copy
import sys
from pathlib import Path

from rewrite.analysis.copy_op import MATERIALIZED_COPY
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


def test_dependency_with_compiler_fallback_leaves_the_op(tmp_path):
    """`fallback compiler`: the same refused rewrite leaves the graph as it was, and says so."""
    def f(a):
        def cond(i):
            return i < 2

        def body(i):
            a.add_(1.0)
            return (i + 1,)

        return torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64),))

    with torch.inference_mode():
        gm = dynamo_graph(f, torch.zeros(2))
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
    rs = load(tmp_path, """
        dependency half
          on       w = higher_order.while_loop(cond_fn, body_fn, carried, captured, ...)
          mutates  captured[i] when i == 0
          order    copy_back(captured[i]) after w
          via      return_from_branches(w)
          fallback compiler
        """)
    report = rs.apply(gm, graph_kind="dynamo")
    (c,) = report.candidates
    assert c.stopped_at == "rewrite" and "left to the compiler (fallback compiler)" in c.reason
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
    assert [c.rule for c in report.fired] == ["reinplace_scatter_into_input"] * 2, \
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
    assert report.fired_rules() == ["reinplace_scatter_into_input"]
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
