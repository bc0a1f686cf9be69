"""A graph whose compile fails past the Dynamo stage (an Inductor lowering or pass error, a stop
of the engine's nets) runs eagerly as Dynamo captured it, with a warning and a report naming the error;
``make_backend(fallback="error")`` raises instead (``rewrite/backend.py``)."""
import logging

import pytest
import torch

from rewrite.backend import RewriteBackend, make_backend
from rewrite.engine.report import Report


def program(x, y):
    x.add_(y)
    return (x * 2).sum(0)


def inputs():
    return torch.arange(12.0).reshape(3, 4), torch.ones(4)


@pytest.fixture
def failing_compile(monkeypatch):
    def fail(self, gm, example_inputs, kind, patches):
        self._log.add(Report(graph=kind, repairs=["of a graph that never runs"]), kind, None)
        raise AssertionError        # as a bare ``assert`` in a pass raises it: no message
    monkeypatch.setattr(RewriteBackend, "_eager", fail)


def run(backend, calls=3):
    torch._dynamo.reset()
    compiled = torch.compile(program, backend=backend, fullgraph=True)
    want, got = inputs(), inputs()
    for _ in range(calls):
        expected, out = program(*want), compiled(*got)
        assert torch.equal(out, expected) and torch.equal(got[0], want[0])


def test_a_failing_compile_runs_eagerly_and_says_so(failing_compile, caplog):
    backend = make_backend(base="eager", cache=False)
    with caplog.at_level(logging.WARNING, logger="rewrite"):
        run(backend)
    [report] = [r for r in backend.reports if r.graph != "dynamo"]   # the failed attempt's reports are gone
    assert report.fallback and not report.repairs
    assert report.fallback.startswith("AssertionError at test_backend_fallback.py:")
    assert "the graph runs eagerly, as Dynamo captured it" in report.summary()
    assert any("runs eagerly instead" in r.getMessage() and "AssertionError" in r.getMessage()
               for r in caplog.records)


def test_fallback_error_raises(failing_compile):
    backend = make_backend(base="eager", cache=False, fallback="error")
    torch._dynamo.reset()
    with pytest.raises(torch._dynamo.exc.BackendCompilerFailed):
        torch.compile(program, backend=backend, fullgraph=True)(*inputs())
    with pytest.raises(ValueError, match="fallback must be one of"):
        make_backend(fallback="eager")


def test_a_failed_compile_is_not_traced_again(failing_compile, monkeypatch):
    """The fallback runs Dynamo's graph as it is: AOTAutograd's second trace of it read what the
    failed attempt left in the fake-tensor mode they share (fuzz seed 0 p3089).  ``"aot_eager"``,
    the fallback's first name, is still accepted."""
    import torch._dynamo.backends.debugging as debugging

    def refuse(gm, example_inputs, **kwargs):
        raise AssertionError("traced again")

    monkeypatch.setattr(debugging, "aot_eager", refuse)
    backend = make_backend(base="eager", cache=False, fallback="aot_eager")
    run(backend)
    assert [r.fallback_runs for r in backend.reports if r.fallback] == ["eagerly, as Dynamo captured it"]


def test_a_compile_that_works_has_no_fallback():
    backend = make_backend(base="eager", cache=False)
    run(backend)
    assert backend.reports and not any(r.fallback for r in backend.reports)


def test_exceptions_dynamo_acts_on_are_not_fallen_back_from(monkeypatch):
    def fail(self, gm, example_inputs, kind, patches):
        raise IndexError("dimension out of range")     # Dynamo re-raises it to the user as it is

    monkeypatch.setattr(RewriteBackend, "_eager", fail)
    torch._dynamo.reset()
    with pytest.raises(IndexError, match="dimension out of range"):
        torch.compile(program, backend=make_backend(base="eager", cache=False), fullgraph=True)(*inputs())


REFERENCE_RULES = """
dependency while_loop_to_reference
  stage    dynamo
  on       w = higher_order.while_loop(cond_fn, body_fn, carried, captured, ...)
  mutates  captured[i] when mutated(cond_fn, captured[i]) or mutated(body_fn, captured[i])
  order    copy_back(captured[i]) after w
  via      thread_as_carried(w)
  fallback reference
"""


def loop_over_aliased_inputs(x1, x2):
    """Fuzz seed 0 p485: the loop condition writes `x1`, the body reads `x2`, two views of one
    tensor.  The dependency's action declines (aliased inputs); stock Inductor loses the write."""
    def cond_fn(i, acc):
        x1[4, 0] = -1.0
        return i < 1

    def body_fn(i, acc):
        return i + 1, acc + x2.sum()

    return torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), torch.zeros(())))


def aliased_inputs():
    base = torch.arange(24.0).reshape(6, 4)
    return base, (base[0:5], base[1:6])


@pytest.mark.parametrize("base", ["inductor", "eager"])
def test_fallback_reference_gives_the_inductor_base_graph_to_aot_eager(tmp_path, base, caplog):
    """`fallback reference`: where the dependency cannot be applied, the Inductor base compiles
    the graph with aot_eager (right where stock Inductor loses the write); the eager base runs
    AOTAutograd's graph as it is, as with `fallback compiler`."""
    rules = tmp_path / "reference.rules"
    rules.write_text(REFERENCE_RULES)
    backend = make_backend(str(rules), base=base, cache=False)
    torch._dynamo.reset()
    compiled = torch.compile(loop_over_aliased_inputs, backend=backend, fullgraph=True)
    (want_base, want), (got_base, got) = aliased_inputs(), aliased_inputs()
    with caplog.at_level(logging.WARNING, logger="rewrite"), torch.inference_mode():
        for _ in range(3):
            expected, out = loop_over_aliased_inputs(*want), compiled(*got)
            assert all(torch.equal(a, b) for a, b in zip(out, expected)) and torch.equal(got_base, want_base)
    [dynamo] = [r for r in backend.reports if r.graph == "dynamo"]
    assert dynamo.left_to_reference and "share memory without a view" in dynamo.left_to_reference[0]
    fallbacks = [r.fallback for r in backend.reports if r.fallback]
    if base == "inductor":
        assert len(fallbacks) == 1 and "fallback reference" in fallbacks[0]
        assert any("runs with aot_eager" in r.getMessage() for r in caplog.records)
    else:
        assert not fallbacks


def training_step(w, x):
    y = w * x
    y[1:].add_(1.0)
    return y.sum() * 2


def training_inputs():
    return torch.arange(6.0).requires_grad_(), torch.linspace(-1.0, 1.0, 6)


@pytest.fixture
def backward_stops(monkeypatch):
    """The engine stops in the backward graph only (as it did on fuzz seed 193 p789)."""
    from rewrite.engine.errors import EarlierPassError
    from rewrite.engine.ruleset import RuleSet

    apply_graph = RuleSet._apply_graph

    def stop_in_backward(self, gm, graph, stage, label, report, *args, **kwargs):
        if label == "backward":
            raise EarlierPassError("backward: a stop for the test")
        return apply_graph(self, gm, graph, stage, label, report, *args, **kwargs)

    monkeypatch.setattr(RuleSet, "_apply_graph", stop_in_backward)


@pytest.mark.parametrize("base", ["eager", pytest.param("inductor", marks=pytest.mark.inductor)])
def test_a_backward_graph_that_fails_to_compile_runs_as_aot_autograd_made_it(backward_stops, base, caplog):
    """AOTAutograd compiles the backward lazily, after the backend returned: its failure would
    raise inside ``loss.backward()``.  It runs AOTAutograd's graph instead, copied before any pass
    ran on it, with a warning and a report."""
    backend = make_backend(base=base, cache=False)
    torch._dynamo.reset()
    compiled = torch.compile(training_step, backend=backend, fullgraph=True)
    want, got = training_inputs(), training_inputs()
    with caplog.at_level(logging.WARNING, logger="rewrite"):
        for _ in range(3):
            training_step(*want).backward()
            compiled(*got).backward()
            assert torch.equal(got[0].grad, want[0].grad)
    [report] = [r for r in backend.reports if r.fallback]
    assert report.graph == "backward" and "a stop for the test" in report.fallback
    assert "runs eagerly, as AOTAutograd made it" in report.summary()
    assert any(r.graph == "forward" and not r.fallback for r in backend.reports)
    assert any("compiling the backward graph failed" in r.getMessage() for r in caplog.records)


def test_a_backward_stop_raises_with_fallback_error(backward_stops):
    backend = make_backend(base="eager", cache=False, fallback="error")
    torch._dynamo.reset()
    loss = torch.compile(training_step, backend=backend, fullgraph=True)(*training_inputs())
    with pytest.raises(Exception, match="a stop for the test"):
        loss.backward()
