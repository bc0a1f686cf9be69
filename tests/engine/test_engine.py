"""Rule application: stages, why-not traces, transactions, the extension API."""
import copy

import pytest
import torch

from graphs import node, ops, post_grad, rules
from rewrite import vocab
from rewrite.analysis.facts.op_facts import MATERIALIZED_COPY
from rewrite.engine import ruleset
from rewrite.engine.ruleset import RuleSet

SCATTER_RULE = """
facts materialized
  extern: aten.mm

opset view_scatter   = aten.slice_scatter | aten.select_scatter
opset indexed_update = aten.index_put | aten._unsafe_index_put

rule scatter_via_updates
  match      s = view_scatter(base: input, src, ...)
  path       p = s ->* last through u: indexed_update when u.args[0] is current and not used_after(current, u)
  where      copied_back(last, base)
  profitable realized(base)
  safe       not alias_used_between(base, s, copy_back(base)) and not operands_overlap_write(s) and same_layout(s, base)
  rewrite    reinplace(s); reinplace_path(p); erase(copy_back(base)); materialize_hazards()
"""


def composed(field, delta, indices, gain):
    field[1:-1].add_(delta)
    values = torch.index_select(field, 0, indices) * gain
    field.index_copy_(0, indices, values)


def updated(field, delta, values, indices):
    """A slice update and an indexed update whose values do not read the field: a program whose
    graph Inductor's own reinplacing leaves right, so failed rewrites must leave it unchanged."""
    field[1:-1].add_(delta)
    field.index_put_((indices,), values)


def updated_inputs():
    torch.manual_seed(0)
    return torch.randn(16), torch.randn(14), torch.randn(3), torch.tensor([0, 3, 5])


def composed_inputs():
    torch.manual_seed(0)
    return torch.randn(16), torch.randn(14), torch.tensor([0, 3, 5]), torch.tensor(2.0)


def run_graph(gm, inputs):
    with torch.inference_mode():
        return gm(*inputs)


def test_empty_rule_set_rewrites_nothing(tmp_path):
    gm = post_grad(composed, *composed_inputs())
    before = gm.code
    report = rules(tmp_path, "# nothing\n").apply(gm)
    assert gm.code == before
    assert report.candidates == [] and report.ops_after.get("aten.slice_scatter.default")


def test_scatter_through_indexed_update_fires_and_matches_eager(tmp_path):
    gm = post_grad(composed, *composed_inputs())
    report = rules(tmp_path, SCATTER_RULE).apply(gm)
    assert report.fired_rules() == ["scatter_via_updates"]
    assert "aten.slice_scatter" not in ops(gm)
    # the only copy left is of the gathered rows the indexed update reads (Inductor would
    # otherwise compute them inside the update's loop), not of the field
    clones = [n for n in gm.graph.nodes if n.op == "call_function" and n.target is MATERIALIZED_COPY]
    assert [tuple(c.meta["val"].shape) for c in clones] == [(3,)]
    assert "aten.index_put_" in ops(gm) and "aten.index_put" not in ops(gm)
    fired = report.fired[0]
    assert fired.location.endswith("test.rules:8")
    assert set(fired.before) >= {"slice_scatter", "copy_"}
    assert report.bytes_removed > 0
    eager_in, graph_in = composed_inputs(), composed_inputs()
    for _ in range(3):
        composed(*eager_in)
        run_graph(gm, graph_in)
        for a, b in zip(eager_in, graph_in):
            assert torch.equal(a, b)


def test_disallowed_op_inside_the_path_stops_the_rule(tmp_path):
    def f(field, delta, indices, gain):
        field[1:-1].add_(delta)
        field.add_(1)                       # a pointwise update between scatter and index_put
        field.index_copy_(0, indices, torch.index_select(field, 0, indices) * gain)

    gm = post_grad(f, *composed_inputs())
    report = rules(tmp_path, SCATTER_RULE).apply(gm)
    assert report.fired_rules() == []
    cand = report.rejected[0]
    assert cand.stopped_at == "where"
    assert cand.reason.startswith("copied_back(slice_scatter, ")
    assert "path p stopped at slice_scatter" in cand.reason           # and why the path stopped there
    assert "aten.slice_scatter" in ops(gm)
    # Inductor's own reinplacing would write the index_put into the field while its loop still
    # gathers rows of it: with no repair rule loaded, the engine's net gives it a private copy.
    assert any("private copy" in w for w in report.warnings)


def test_why_not_names_the_false_predicate_its_arguments_and_the_reader(tmp_path):
    gm = post_grad(composed, *composed_inputs())
    x = next(n for n in gm.graph.nodes if n.op == "placeholder")
    scatter = node(gm, "aten.slice_scatter")
    with gm.graph.inserting_after(scatter):                 # an old-value read after the scatter
        late = gm.graph.call_function(torch.ops.aten.sum.default, (x,))
    gm.graph.output_node().args = ((late,),)
    gm.recompile()
    report = rules(tmp_path, SCATTER_RULE).apply(gm)
    cand = report.rejected[0]
    assert cand.stopped_at == "safe"
    assert cand.reason == (f"alias_used_between({x.name}, slice_scatter, copy_) is true "
                           f"({late.name} (aten.sum) reads {x.name})")
    assert cand.line().startswith("scatter_via_updates @ ")
    assert "rejected by safe: alias_used_between" in cand.line()
    assert cand.reached == ("match", "where", "profitable", "safe")


def test_profitability_is_a_separate_stage(tmp_path):
    text = SCATTER_RULE.replace("profitable realized(base)", "profitable numel(base) > 1000")
    gm = post_grad(composed, *composed_inputs())
    report = rules(tmp_path, text).apply(gm)
    cand = report.rejected[0]
    assert cand.stopped_at == "profitable" and "numel(" in cand.reason


@pytest.fixture
def registry():
    return vocab.default_registry().child()


def _graph_state(gm):
    return gm.code, [n.name for n in gm.graph.nodes]


def test_failing_action_rolls_back_and_program_stays_correct(tmp_path, registry):
    def explode(ctx, n):
        ctx.edit.reinplace(n)                  # a real edit first...
        raise RuntimeError("injected failure")  # ...then a failure

    vocab.register_action("explode", explode, registry=registry)
    path = tmp_path / "f.rules"
    path.write_text(SCATTER_RULE.replace("rewrite    reinplace(s);", "rewrite    explode(s);"))
    rs = RuleSet.load([path], registry=registry)
    gm = post_grad(updated, *updated_inputs())
    before = _graph_state(gm)
    report = rs.apply(gm)
    assert _graph_state(gm) == before
    assert report.rejected[0].stopped_at == "rewrite" and "injected failure" in report.rejected[0].reason
    assert report.warnings
    eager_in, graph_in = updated_inputs(), updated_inputs()
    for _ in range(3):
        updated(*eager_in)
        run_graph(gm, graph_in)
    assert all(torch.equal(a, b) for a, b in zip(eager_in, graph_in))


def test_action_that_breaks_the_graph_is_rolled_back(tmp_path, registry):
    def break_graph(ctx, n):
        # Rewire the scatter's users to a node defined after them: not topologically ordered.
        last = list(ctx.graph.nodes)[-2]
        ctx.txn.replace_uses(n, last)

    vocab.register_action("break_graph", break_graph, registry=registry)
    path = tmp_path / "b.rules"
    path.write_text(SCATTER_RULE.replace("rewrite    reinplace(s); reinplace_path(p); erase(copy_back(base))",
                                         "rewrite    break_graph(s)"))
    rs = RuleSet.load([path], registry=registry)
    gm = post_grad(updated, *updated_inputs())
    before = _graph_state(gm)
    report = rs.apply(gm)
    assert _graph_state(gm) == before
    assert report.rejected[0].stopped_at == "rewrite"
    assert "before it is defined" in report.rejected[0].reason
    eager_in, graph_in = updated_inputs(), updated_inputs()
    for _ in range(3):
        updated(*eager_in)
        run_graph(gm, graph_in)
    assert all(torch.equal(a, b) for a, b in zip(eager_in, graph_in))


def test_erasing_a_copy_back_that_still_carries_data_is_refused(tmp_path):
    text = SCATTER_RULE.replace("rewrite    reinplace(s); reinplace_path(p); erase(copy_back(base))",
                                "rewrite    erase(copy_back(base))")
    gm = post_grad(updated, *updated_inputs())
    before = gm.code
    report = rules(tmp_path, text).apply(gm)
    assert gm.code == before
    cand = report.rejected[0]
    # validation refuses it before the legality check would ("leaves input ... unchanged")
    assert cand.stopped_at == "rewrite" and "no node the rewrite adds takes that write over" in cand.reason


def test_registered_predicate_is_callable_from_rules_and_documented(tmp_path, registry):
    def big(ctx, x):
        """x has more than 10 elements."""
        return ctx.facts.numel(x) > 10

    entry = vocab.register_predicate("big", big, registry=registry)
    assert entry.arity == 1 and entry.summary == "x has more than 10 elements."
    path = tmp_path / "p.rules"
    path.write_text(SCATTER_RULE.replace("profitable realized(base)", "profitable big(base)"))
    gm = post_grad(composed, *composed_inputs())
    report = RuleSet.load([path], registry=registry).apply(gm)
    assert report.fired_rules() == ["scatter_via_updates"]


def test_rewrites_that_undo_each_other_stop_as_a_cycle(tmp_path, registry):
    def swap(ctx, n):
        ctx.txn.set_args(n, (n.args[1], n.args[0]))

    vocab.register_action("swap", swap, registry=registry)
    path = tmp_path / "c.rules"
    path.write_text("rule swap_add\n  match y = aten.add.Tensor(a: node, b: node)\n  rewrite swap(y)\n")

    def f(a, b):
        return a + b

    gm = post_grad(f, torch.randn(3), torch.randn(3))
    report = RuleSet.load([path], registry=registry).apply(gm)     # add commutes: the check agrees
    assert any("cycle" in w for w in report.warnings)
    # fingerprints start after CYCLE_WATCH_AFTER fired sweeps; a cycle of two is seen two later
    assert report.iterations <= ruleset.CYCLE_WATCH_AFTER + 2


def test_swapping_operands_is_legal_only_where_they_commute(tmp_path, registry):
    """The legality check knows `add` (alpha 1) and `mul` commute, and nothing else does."""
    def swap(ctx, n):
        ctx.txn.set_args(n, (n.args[1], n.args[0]) + tuple(n.args[2:]))

    vocab.register_action("swap", swap, registry=registry)
    for op, fn, legal in (("aten.mul.Tensor", lambda a, b: a * b, True),
                          ("aten.sub.Tensor", lambda a, b: a - b, False),
                          ("aten.div.Tensor", lambda a, b: a / b, False)):
        path = tmp_path / "s.rules"
        path.write_text(f"rule swap_once\n  match y = {op}(a: node, b: node)\n  rewrite swap(y)\n")
        gm = post_grad(fn, torch.randn(3), torch.randn(3) + 2)
        report = RuleSet.load([path], registry=registry).apply(gm)
        first = [c for c in report.candidates if c.rule == "swap_once"][0]
        assert (first.stopped_at is None) == legal, (op, first.line())
        if not legal:
            assert first.stopped_at == "legality"


def test_subgraphs_are_rewritten_before_the_graph_that_holds_them(tmp_path):
    def f(state):
        def cond(i, acc):
            return i < 2

        def body(i, acc):
            return i + 1, (acc * 2) + state

        return torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64), torch.zeros_like(state)))

    with torch.inference_mode():
        gm = post_grad(f, torch.ones(3))
    text = "rule mul_seen\n  match y = aten.mul.Tensor(a: node, _)\n  where not is_input(a) and is_input(a)\n"
    report = rules(tmp_path, text).apply(gm)
    graphs = [c.graph for c in report.candidates]
    assert graphs and all("/" in g for g in graphs)     # found inside the body subgraph


def test_while_loop_dependency_threads_the_captured_state(tmp_path):
    from graphs import dynamo_graph
    from rewrite.lang.loader import shipped_rules_dir

    def f(state):
        state.mul_(0.8)

        def cond(i, acc):
            state.mul_(0.5)
            return i < 2

        def body(i, acc):
            return i + 1, acc + state

        i, acc = torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64), torch.zeros_like(state)))
        return i, acc, state.clone()

    with torch.inference_mode():
        gm = dynamo_graph(f, torch.ones(3))
        rs = RuleSet.load([shipped_rules_dir() / "dependencies.rules"])
        report = rs.apply(gm, graph_kind="dynamo")
        assert report.fired_rules() == ["while_loop_captured_mutations"]
        loops = [n for n in gm.graph.nodes if n.target is torch.ops.higher_order.while_loop]
        assert len(loops) == 1
        copies = [n for n in gm.graph.nodes if n.op == "call_method" and n.target == "copy_"]
        assert len(copies) == 1 and loops[0] < copies[0]
        state_e, state_g = torch.ones(3), torch.ones(3)
        for _ in range(3):
            out_e, out_g = f(state_e), gm(state_g)
            assert all(torch.allclose(a, b) for a, b in zip(out_e, out_g))
            assert torch.allclose(state_e, state_g)
