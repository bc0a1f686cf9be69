"""Validation and rollback that cannot lie: what a rewrite may not do to a graph (replace a value
by one of another shape or by a constant, erase a placeholder, drop a write no new node takes
over), and that a failed or interrupted rewrite leaves exactly the graph it found, also when a
registered Python action edited the graph behind the transaction's back."""
import pytest
import torch

from graphs import post_grad
from rewrite import vocab
from rewrite.engine.ruleset import RuleSet
from rewrite.engine.transaction import fingerprint


@pytest.fixture
def registry():
    return vocab.default_registry().child()


def add_mul(x, y):
    return (x + y) * 2.0


def add_mul_inputs():
    return torch.arange(6.0), torch.ones(6)


def load(tmp_path, registry, rewrite: str, match: str = "y = aten.add.Tensor(a, b)") -> RuleSet:
    path = tmp_path / "v.rules"
    path.write_text(f"rule edit\n  match   {match}\n  rewrite {rewrite}\n")
    return RuleSet.load([path], registry=registry)


def apply_and_expect_refusal(rs: RuleSet, gm, words: str):
    before = fingerprint(gm.graph), gm.code
    report = rs.apply(gm)
    (cand,) = [c for c in report.candidates if c.rule == "edit"]
    assert cand.stopped_at == "rewrite", cand.line()
    assert words in cand.reason, cand.reason
    assert (fingerprint(gm.graph), gm.code) == before
    x, y = add_mul_inputs()
    with torch.inference_mode():
        assert torch.equal(gm(x, y)[0], add_mul(x, y))
    return cand


def test_replacement_of_another_shape_is_refused(tmp_path, registry):
    def shrink(ctx, n):
        small = ctx.txn.insert("call_function", torch.ops.aten.sum.default, (n,), after=n)
        ctx.txn.replace_uses(n, small, where=lambda u: u is not small)

    vocab.register_action("shrink", shrink, registry=registry)
    gm = post_grad(add_mul, *add_mul_inputs())
    apply_and_expect_refusal(load(tmp_path, registry, "shrink(y)"), gm, "cannot replace")


def test_composite_whose_result_may_be_its_input_is_refused(tmp_path, registry):
    """A Python action that inserts ``atleast_1d(x)`` (which returns a 1-d ``x`` itself, though
    its schema says a new tensor) and writes into it is refused by validation, whatever the
    checker could not see of the action's code."""
    def write_through(ctx, n):
        t = ctx.txn.insert("call_function", torch.ops.aten.atleast_1d.default, (n.args[0],), before=n)
        ctx.txn.insert("call_function", torch.ops.aten.add_.Tensor, (t, n.args[1]), before=n)

    vocab.register_action("write_through", write_through, registry=registry)
    gm = post_grad(add_mul, *add_mul_inputs())
    apply_and_expect_refusal(load(tmp_path, registry, "write_through(y)"), gm, "whether its result is a new tensor")


def test_replacement_by_a_constant_is_refused(tmp_path, registry):
    def constant(ctx, n):
        ctx.txn.replace_uses(n, 3.0)

    vocab.register_action("constant", constant, registry=registry)
    gm = post_grad(add_mul, *add_mul_inputs())
    apply_and_expect_refusal(load(tmp_path, registry, "constant(y)"), gm, "replaced by the constant 3.0")


def test_erasing_a_placeholder_is_refused(tmp_path, registry):
    def drop_input(ctx, n):
        placeholder = n.args[1]
        ctx.txn.replace_uses(placeholder, n.args[0])
        ctx.txn.erase(placeholder)

    vocab.register_action("drop_input", drop_input, registry=registry)
    gm = post_grad(add_mul, *add_mul_inputs())
    apply_and_expect_refusal(load(tmp_path, registry, "drop_input(y)"), gm, "cannot erase placeholder")


def test_erasing_a_write_nothing_takes_over_is_refused(tmp_path, registry):
    """A write made by an earlier rewrite (here `x.add_(d)` after reinplacing) cannot be
    erased unless the rewrite adds a write of the same memory."""
    def f(x, d):
        x.add_(d)

    def forget(ctx, n):
        ctx.txn.replace_uses(n, n.args[0])
        ctx.txn.erase(n)

    vocab.register_action("forget", forget, registry=registry)
    gm = post_grad(f, torch.zeros(4), torch.ones(4))
    assert any(n.target is torch.ops.aten.copy_.default for n in gm.graph.nodes)
    rs = load(tmp_path, registry, "forget(c)", match="c = aten.copy_(dst: input, src)")
    before = fingerprint(gm.graph)
    report = rs.apply(gm)
    (cand,) = report.candidates
    assert cand.stopped_at == "rewrite" and "no node the rewrite adds takes that write over" in cand.reason
    assert fingerprint(gm.graph) == before


def test_python_action_that_edits_directly_then_raises_is_undone_exactly(tmp_path, registry):
    """Edits made straight on the graph (not through the transaction) are undone from the
    snapshot: same names, ops, targets and arguments as before, and the program is right."""
    def vandal(ctx, n):
        g = n.graph
        with g.inserting_after(n):
            extra = g.call_function(torch.ops.aten.neg.default, (n,))
        n.replace_all_uses_with(extra, delete_user_cb=lambda u: u is not extra)
        ctx.root.register_module("junk", torch.nn.Identity())
        raise RuntimeError("halfway")

    vocab.register_action("vandal", vandal, registry=registry)
    gm = post_grad(add_mul, *add_mul_inputs())
    cand = apply_and_expect_refusal(load(tmp_path, registry, "vandal(y)"), gm, "halfway")
    assert "graph restored" in cand.reason
    assert not hasattr(gm, "junk")


def test_interrupted_action_restores_the_graph_and_propagates(tmp_path, registry):
    def interrupted(ctx, n):
        ctx.txn.insert("call_function", torch.ops.aten.neg.default, (n,), after=n)
        n.args = (n.args[1], n.args[0])          # a direct edit too
        raise KeyboardInterrupt

    vocab.register_action("interrupted", interrupted, registry=registry)
    gm = post_grad(add_mul, *add_mul_inputs())
    before = fingerprint(gm.graph), gm.code
    with pytest.raises(KeyboardInterrupt):
        load(tmp_path, registry, "interrupted(y)").apply(gm)
    assert (fingerprint(gm.graph), gm.code) == before


def test_materialize_then_fail_is_undone_exactly(tmp_path, registry):
    """``materialize`` redirects reads argument by argument (``replace_reads``); a failure after
    it restores the graph through the transaction, not the snapshot."""
    def materialize_then_fail(ctx, n):
        ctx.edit.materialize(n.args[0])
        ctx.edit.materialize_for(n.args[1], n)
        raise RuntimeError("after materializing")

    vocab.register_action("materialize_then_fail", materialize_then_fail, registry=registry)
    gm = post_grad(add_mul, *add_mul_inputs())
    cand = apply_and_expect_refusal(load(tmp_path, registry, "materialize_then_fail(y)"), gm, "after materializing")
    assert "graph restored" in cand.reason
