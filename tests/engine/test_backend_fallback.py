"""A graph whose compile fails past the Dynamo stage (an Inductor lowering or pass error, a stop
of the engine's nets) runs with torch's aot_eager, with a warning and a report naming the error;
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


def test_a_failing_compile_runs_with_aot_eager_and_says_so(failing_compile, caplog):
    backend = make_backend(base="eager", cache=False)
    with caplog.at_level(logging.WARNING, logger="rewrite"):
        run(backend)
    [report] = [r for r in backend.reports if r.graph != "dynamo"]   # the failed attempt's reports are gone
    assert report.fallback and not report.repairs
    assert report.fallback.startswith("AssertionError at test_backend_fallback.py:")
    assert "runs with aot_eager" in report.summary()
    assert any("runs with aot_eager instead" in r.getMessage() and "AssertionError" in r.getMessage()
               for r in caplog.records)


def test_fallback_error_raises(failing_compile):
    backend = make_backend(base="eager", cache=False, fallback="error")
    torch._dynamo.reset()
    with pytest.raises(torch._dynamo.exc.BackendCompilerFailed):
        torch.compile(program, backend=backend, fullgraph=True)(*inputs())
    with pytest.raises(ValueError, match="fallback must be one of"):
        make_backend(fallback="eager")


def test_where_aot_eager_fails_too_the_first_error_is_raised(failing_compile, monkeypatch):
    import torch._dynamo.backends.debugging as debugging

    def refuse(gm, example_inputs, **kwargs):
        raise RuntimeError("aot_eager refused for the test")

    monkeypatch.setattr(debugging, "aot_eager", refuse)
    torch._dynamo.reset()
    with pytest.raises(torch._dynamo.exc.BackendCompilerFailed) as info:
        torch.compile(program, backend=make_backend(base="eager", cache=False), fullgraph=True)(*inputs())
    assert isinstance(info.value.inner_exception, AssertionError)


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
