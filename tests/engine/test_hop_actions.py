"""The Dynamo-graph actions for higher-order ops (``rewrite/engine/hop_actions.py``)."""
import pytest
import torch

from graphs import dynamo_graph
from rewrite.engine.ruleset import RuleSet, shipped_rules_dir


def rewritten_branches(write):
    """The branches ``cond_captured_mutations`` builds for a ``cond`` whose true branch does
    ``write(x)`` to a captured ``x``: (writing branch, other branch)."""
    def f(x, y):
        def true_fn(p):
            write(x)
            return p.clone()

        def false_fn(p):
            return p * 2

        return torch.cond(y.sum() > 0, true_fn, false_fn, (y,))

    with torch.inference_mode():
        gm = dynamo_graph(f, torch.zeros(5, 5), -torch.ones(3))
    report = RuleSet.load([shipped_rules_dir() / "dependencies.rules"]).apply(gm, graph_kind="dynamo")
    assert report.fired_rules() == ["cond_captured_mutations"]
    [cond] = [n for n in gm.graph.nodes if n.target is torch.ops.higher_order.cond]
    return getattr(gm, cond.args[1].target), getattr(gm, cond.args[2].target)


def contiguous_clones(branch):
    return [n for n in branch.graph.nodes if n.op == "call_method" and n.target == "clone"
            and n.kwargs.get("memory_format") is torch.contiguous_format]


@pytest.mark.parametrize("write, reordered", [
    (lambda x: x.t().index_copy_(0, torch.tensor([1, 0]), torch.ones(2, 5)), True),
    (lambda x: x.transpose(0, 1)[1:].add_(1.0), True),
    (lambda x: x.permute(1, 0).split(2)[0].zero_(), True),
    (lambda x: x[1:3].index_copy_(0, torch.tensor([1, 0]), torch.ones(2, 5)), False),
    (lambda x: x.view(-1)[3:].mul_(2.0), False),
    (lambda x: x.split(2)[1].diagonal().fill_(3.0), False),
    (lambda x: x.add_(x.t()), False),                       # read through the transpose, written directly
])
def test_only_a_branch_writing_through_a_reordering_view_returns_a_contiguous_clone(write, reordered):
    """Such a write leaves the state's functional value laid out transposed, and ``view(-1)`` of
    it fails while AOTAutograd traces the branch (fuzz seed 193 p462); a clone costs a copy of
    the state, so only such a branch pays for it."""
    writes, other = rewritten_branches(write)
    assert bool(contiguous_clones(writes)) == reordered, writes.code
    assert not contiguous_clones(other)
