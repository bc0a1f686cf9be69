"""The report's comparison with stock Inductor (``Report.copies``) is paid for only when asked:
``measure_copies``, ``rewrite explain``, or the ``rewrite`` logger at INFO (``REWRITE_LOG=info``).
When it is measured, the simulations of Inductor's reinplacing it needs are the ones the rules
and the ownership step use: asking adds one simulation (of the graph as received) at most."""
import copy
import logging

import pytest
import torch

from graphs import post_grad
from rewrite.analysis.inductor import reinplace
from rewrite.backend import make_backend
from rewrite.engine.ruleset import RuleSet, graph_fingerprint
from rewrite.explain import explain


def slice_update(x, d):
    x[1:3].add_(d)
    return x.sum()


def read_only(x, d):
    return (x[1:3] + d).sum()


def inputs():
    return torch.arange(8.0), torch.ones(2)


def slice_then_index_copy(x, idx, v):
    """Stock Inductor keeps two full copies of ``x`` (64 bytes); the rules one 2-element copy."""
    x[1:-1].add_(1)
    x.index_copy_(0, idx, x.index_select(0, idx) * v)
    return x


def composed_inputs():
    return torch.arange(8.0), torch.tensor([0, 5]), torch.ones(2)


def post_grad_report(backend):
    [report] = [r for r in backend.reports if r.graph == "inference"]
    return report


@pytest.fixture
def simulations(monkeypatch):
    """Counts the simulations of Inductor's reinplacing (wherever they are made)."""
    made = []
    real = reinplace.simulate

    def counted(*args, **kwargs):
        made.append(args[1])
        return real(*args, **kwargs)

    monkeypatch.setattr(reinplace, "simulate", counted)
    import rewrite.analysis.inductor_pass_facts as inductor_pass_facts
    monkeypatch.setattr(inductor_pass_facts, "simulate", counted)
    return made


@pytest.mark.parametrize("fn, fires", [(slice_update, True), (read_only, False)])
def test_measuring_adds_at_most_the_simulation_of_the_graph_as_received(fn, fires, simulations):
    graph = post_grad(fn, *inputs())
    rules = RuleSet.load()
    counts, results = {}, {}
    for measure in (False, True):
        simulations.clear()
        rewritten = copy.deepcopy(graph)
        report = rules.apply(rewritten, measure_copies=measure)
        results[measure] = (graph_fingerprint(rewritten.graph), [c.line() for c in report.candidates])
        assert bool(report.fired) == fires
        assert (report.copies is not None) == measure
        assert ("copy_measure" in report.seconds) == measure
        counts[measure] = len(simulations)
    # the graph as received is simulated for the comparison; when no rule changes it, that same
    # simulation answers the rules and the ownership step, and gives the copies with the rules
    assert counts[True] == counts[False] + (1 if fires else 0)
    assert results[True] == results[False]          # measuring changes nothing the rules do


SAID = "copies per call: stock Inductor 2 (64 bytes), with the rules 1 (8 bytes)"
#: the eager base runs the graph op by op: the values are computed before the in-place write
#: reads them, so it needs no copy of them (Inductor would inline their computation into the write)
SAID_EAGER = "copies per call: stock Inductor 2 (64 bytes), with the rules 0 (0 bytes)"


def test_the_comparison_says_what_each_copies():
    report = RuleSet.load().apply(post_grad(slice_then_index_copy, *composed_inputs()), measure_copies=True)
    assert (report.copies.stock_copies, report.copies.ours_copies) == (2, 1)
    assert (report.copies.stock_bytes, report.copies.ours_bytes) == (64, 8)
    assert SAID in report.summary()


def test_a_compile_does_not_pay_for_it_unless_asked():
    for measure in (False, True):
        torch._dynamo.reset()
        backend = make_backend(base="eager", cache=False, measure_copies=measure)
        with torch.inference_mode():
            torch.compile(slice_update, backend=backend, fullgraph=True)(*inputs())
        report = post_grad_report(backend)
        assert (report.copies is not None) == measure and ("copy_measure" in report.seconds) == measure


def test_rewrite_log_info_asks_for_it_and_logs_it(caplog):
    torch._dynamo.reset()
    backend = make_backend(base="eager", cache=False)
    with caplog.at_level(logging.INFO, logger="rewrite"), torch.inference_mode():
        torch.compile(slice_then_index_copy, backend=backend, fullgraph=True)(*composed_inputs())
    assert post_grad_report(backend).copies is not None
    assert any(r.levelno == logging.INFO and r.getMessage() == f"[inference] {SAID_EAGER}" for r in caplog.records)


def test_explain_asks_for_it():
    with torch.inference_mode():
        text = explain(slice_then_index_copy, *composed_inputs())
    assert SAID_EAGER in text
