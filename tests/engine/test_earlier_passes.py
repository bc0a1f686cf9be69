"""What Inductor's passes before ours did, found and repaired (analysis/inductor/earlier_passes.py, the rule
keep_values_read_after_copy_back and the engine's net): graphs built to look as noop removal
leaves them, then the whole backend on a program whose input AOTAutograd writes after the graph.
The corpus (tests/corpus/inductor/issue23_*) has the issue's programs end to end."""
from __future__ import annotations

import pytest
import torch
import torch.fx as fx
from torch.fx.experimental.proxy_tensor import make_fx

import rewrite
from rewrite.analysis.inductor import earlier_passes, outputs
from rewrite.analysis.facts import op_facts
from rewrite.analysis.facts.op_facts import is_materialized_copy
from rewrite.engine.actions import Editor
from rewrite.engine.errors import ActionError
from rewrite.engine.ruleset import EarlierPassError, RuleSet


def traced(fn, *args) -> fx.GraphModule:
    """``fn`` as an ATen graph with fake values, its in-place ops kept where they are; reads of
    an input after a write into it read the input itself (make_fx reads them through the write's
    result), as a graph AOTAutograd's epilogue ends and a pass reordered."""
    gm = make_fx(fn, tracing_mode="fake")(*args)
    for write in writes_of(gm):
        for user in list(write.users):
            user.replace_input_with(write, write.args[0])
    gm.recompile()
    return gm


@pytest.fixture
def own_outputs(monkeypatch):
    """The graphs' outputs are tensors of their own, as AOTAutograd's metadata would say of the
    programs they stand for (there is no compilation here to ask)."""
    monkeypatch.setattr(outputs, "output_roles",
                        lambda graph, graph_kind=None: ["own"] * len(outputs.output_items(graph)))


def writes_of(gm):
    return [n for n in gm.graph.nodes if n.op == "call_function" and op_facts.written_nodes(n)]


def returns_old_rows(a):
    """As noop removal leaves `old = a.clone(); a.mul_(2); return old[3:5].clone()`."""
    new = a * 2
    rows = a[3:5]
    a.copy_(new)
    return rows


def slices_after_the_write(a):
    """The same, with the view taken after the write (a pass reordered it)."""
    new = a * 2
    a.copy_(new)
    return a[3:5]


def reads_before_the_write(a):
    new = a * 2
    total = a[3:5].sum()
    a.copy_(new)
    return total


def rows():
    return torch.arange(12.0).reshape(6, 2)


def functional_result(fn):
    """What the graph means read functionally: the rows before the write."""
    return rows()[3:5] if fn is not reads_before_the_write else rows()[3:5].sum()


@pytest.mark.parametrize("fn", [returns_old_rows, slices_after_the_write])
def test_a_late_read_is_found_and_the_two_readings_differ(fn, own_outputs):
    gm = traced(fn, rows())
    reads = earlier_passes.late_reads(gm.graph, writes_of(gm))
    assert [(r.reader.op, r.positions) for r in reads] == [("output", (0,))]
    assert "overwrote it" in reads[0].describe()
    assert earlier_passes.functional_reading_kept(gm.graph, writes_of(gm)) != ""


def test_a_read_before_the_write_is_no_late_read(own_outputs):
    gm = traced(reads_before_the_write, rows())
    assert earlier_passes.late_reads(gm.graph, writes_of(gm)) == []
    assert earlier_passes.functional_reading_kept(gm.graph, writes_of(gm)) == ""


@pytest.mark.parametrize("fn", [returns_old_rows, slices_after_the_write, reads_before_the_write])
def test_the_rules_make_the_graph_compute_its_functional_reading(fn, own_outputs):
    gm = traced(fn, rows())
    report = RuleSet.load(None).apply(gm, "inference")
    a = rows()
    assert torch.equal(gm(a), functional_result(fn))
    assert torch.equal(a, rows() * 2)                       # the write itself still happens
    copies = [n for n in gm.graph.nodes if is_materialized_copy(n)]
    if fn is reads_before_the_write:
        assert copies == [] and "keep_values_read_after_copy_back" not in report.fired_rules()
    else:
        assert "keep_values_read_after_copy_back" in report.fired_rules()
        write = writes_of(gm)[0]
        assert len(copies) == 1 and copies[0] < write        # taken before the write, two rows only
        assert tuple(copies[0].meta["val"].shape) == (2, 2)
    assert earlier_passes.functional_reading_kept(gm.graph, [n for n in writes_of(gm)]) == ""


def test_the_net_repairs_without_the_rule_and_says_so(tmp_path, own_outputs):
    rules = tmp_path / "none.rules"
    rules.write_text('rule unrelated\n  stage post_grad\n  match s = aten.slice_scatter(base: input, src, ...)\n'
                     '  where is_input(base)\n  rewrite reinplace(s)\n')
    gm = traced(returns_old_rows, rows())
    report = RuleSet.load([str(rules)]).apply(gm, "inference")
    assert torch.equal(gm(rows()), rows()[3:5])
    assert len(report.repairs) == 1 and "output 0 reads" in report.repairs[0]
    assert "noop removal" in report.repairs[0] and "repaired: " in report.summary()


def test_a_repair_that_fails_stops_the_compilation(monkeypatch, own_outputs):
    def refuse(self, reads):
        raise ActionError("refused for the test")

    monkeypatch.setattr(Editor, "copy_for_readers", refuse)
    gm = traced(returns_old_rows, rows())
    with pytest.raises(EarlierPassError, match="could not be repaired: refused for the test"):
        RuleSet.load(None).apply(gm, "inference")


def test_a_tensor_saved_for_backward_of_an_input_written_after_the_graph():
    """`a` requires grad and is not a leaf: AOTAutograd writes it after the forward graph, which
    saves `a[3:5]` for backward once noop removal has dropped the clone (stock Inductor's
    gradients are wrong).  The net gives the saved rows memory of their own."""
    def fn(a, w):
        old = a.clone()
        a.mul_(2.0)
        return (old[3:5] * w).sum()

    be = rewrite.backend(base="eager", cache=False)
    compiled = torch.compile(fn, backend=be, fullgraph=True)
    grads = []
    for f in (compiled, fn):
        base, w = rows().requires_grad_(), torch.ones(2, requires_grad=True)
        for _ in range(3):
            a = base * 1
            (f(a, w) + a.sum()).backward()
        grads.append((base.grad, w.grad))
    assert torch.equal(grads[0][0], grads[1][0]) and torch.equal(grads[0][1], grads[1][1])
    repairs = [r for rep in be.reports for r in rep.repairs]
    assert any("saved for backward" in r and "writes after the graph" in r for r in repairs)


def two_views_of_one_buffer(a):
    """As noop removal leaves `b = a * 2; return b[:3].clone(), b[1:].clone()` (fuzz seed 37
    p74): both clones dropped, the outputs two overlapping views of one buffer."""
    b = a * 2
    return b[:3], b[1:]


@pytest.mark.parametrize("groups, found", [((0, 1), True), ((0, 0), False), (None, False)])
def test_outputs_that_had_memory_of_their_own_before_the_passes_are_found(groups, found):
    gm = traced(two_views_of_one_buffer, torch.arange(4.0))
    misplaced = earlier_passes.misplaced_outputs(gm.graph, ["own", "own"], groups)
    if not found:      # the same memory before the passes (views of one intermediate), or not known
        assert misplaced == []
        return
    [m] = misplaced
    assert (m.position, m.shares_with, m.input) == (1, 0, None)
    assert "shares memory with output 0" in m.describe()


def test_the_joint_record_is_read_back_for_the_same_compilation_only(monkeypatch):
    def clones(a):
        b = a * 2
        return b[:3].clone(), b[1:], b[:2]

    gm = traced(clones, torch.arange(4.0))
    context = object()
    monkeypatch.setattr(earlier_passes, "_tracing_context", lambda: context)
    assert earlier_passes.record_joint_outputs(gm.graph) is None    # no AOTAutograd input descriptors:
    assert earlier_passes.joint_output_groups() is None             # a higher-order op's function
    for p in gm.graph.find_nodes(op="placeholder"):
        p.meta["desc"] = f"input {p.name}"
    monkeypatch.setattr(earlier_passes, "_tracing_context", lambda: context)
    assert earlier_passes.record_joint_outputs(gm.graph) == (0, 1, 1)     # the two views share b's memory
    assert earlier_passes.joint_output_groups() == (0, 1, 1)
    monkeypatch.setattr(earlier_passes, "_tracing_context", lambda: object())
    assert earlier_passes.joint_output_groups() is None
    monkeypatch.setattr(earlier_passes, "_tracing_context", lambda: None)
    assert earlier_passes.record_joint_outputs(gm.graph) is None and earlier_passes.joint_output_groups() is None
