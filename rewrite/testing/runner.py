"""Running one corpus case: eager reference vs. compiled with the rules, then the expectations."""
from __future__ import annotations

import contextlib
import difflib
import logging
import os
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Optional, Sequence, Union

import torch

from rewrite.backend import make_backend
from rewrite.engine.report import Candidate, Report
from rewrite.testing.case import Case, CaseFormatError, parse_case
from rewrite.testing.checks import check_reports, describe_got, name_problems
from rewrite.testing.execute import auto_functionalized, error_chain_text, fresh_inputs, raised, run_calls
from rewrite.testing.state import compare

BASES = ("eager", "inductor")


@dataclass
class CaseResult:
    case_id: str
    path: str
    base: str
    status: str = "pass"                  # pass | fail | error (the case file itself is malformed)
    rules: List[str] = field(default_factory=list)
    expected: str = "-"
    got: str = "-"
    seconds: float = 0.0
    failures: List[str] = field(default_factory=list)
    trace: List[str] = field(default_factory=list)      # Candidate.line() of the case's rules
    diff: str = ""                                       # post-grad graph before/after
    candidates: List[Candidate] = field(default_factory=list)
    declared_slow: bool = False

    @property
    def ok(self) -> bool:
        return self.status == "pass"

    def details(self) -> str:
        """What a failing case prints: the failures, the why-not trace, the graph diff."""
        out = [f"{self.case_id} [{self.base}]: {self.status.upper()}"]
        out += ["  " + line for f in self.failures for line in f.splitlines()]
        if self.trace:
            out.append("  why-not trace:")
            out += ["    " + line for line in self.trace]
        elif self.status == "fail":
            out.append("  why-not trace: no candidate of " + (", ".join(self.rules) or "any rule"))
        if self.diff:
            out.append("  post-grad graph, before -> after the rules:")
            out += ["    " + line for line in self.diff.splitlines()]
        return "\n".join(out)


def graph_diff(reports: Sequence[Report]) -> str:
    chunks = []
    for r in reports:
        if r.graph == "dynamo":
            continue
        lines = list(difflib.unified_diff(r.graph_before.splitlines(), r.graph_after.splitlines(),
                                          f"{r.graph} (before)", f"{r.graph} (after)", lineterm="", n=2))
        chunks.append("\n".join(lines) if lines else f"--- {r.graph}: unchanged by the rules")
    return "\n".join(chunks)


def compile_case(fn, case: Case, base: str, rules, dynamic: Optional[bool] = None):
    """``(compiled_fn, backend)``: a fresh backend and fresh Dynamo caches for every case;
    ``dynamic`` overrides the case's setting (one of its ``dynamic_modes``)."""
    torch._dynamo.reset()
    # cache=False: a graph served from Inductor's FX graph cache would skip the rules and report
    # nothing, and the expectations are about what the rules did.
    backend = make_backend(rules=rules, base=base, cache=False, snapshots=True)
    compiled = torch.compile(fn, backend=backend, fullgraph=True,
                             dynamic=bool(case.dynamic) if dynamic is None else dynamic)
    return compiled, backend


def _error_text(exc: BaseException) -> str:
    lines = traceback.format_exception_only(type(exc), exc)
    text = "".join(lines).strip()
    return text if len(text) < 2000 else text[:2000] + " ..."


DEVICE_VARIABLE = "REWRITE_TEST_DEVICE"


def test_device() -> str:
    """The device cases run on: ``REWRITE_TEST_DEVICE`` (e.g. ``cuda``), default ``cpu``.  It is
    made the default device while a case runs, so the tensors ``inputs()`` and the function create
    land there."""
    return os.environ.get(DEVICE_VARIABLE, "cpu")


def run_case(target: Union[str, Path, Case], base: str = "eager", rules=None) -> CaseResult:
    """Run one case; never raises for a failing or malformed case (that is the result)."""
    if base not in BASES:
        raise ValueError(f"base must be one of {BASES}, not {base!r}")
    start = time.perf_counter()
    path = target.path if isinstance(target, Case) else Path(target)
    try:
        case = target if isinstance(target, Case) else parse_case(path)
    except CaseFormatError as exc:
        return CaseResult(case_id=f"{path.parent.name}/{path.stem}", path=str(path), base=base,
                          status="error", failures=[str(exc)], seconds=time.perf_counter() - start)
    result = CaseResult(case_id=case.case_id, path=str(case.path), base=base, rules=case.rules,
                        expected=case.describe_expected(), declared_slow=case.slow)
    problems = name_problems(case.expectations, rules)
    if problems:  # nothing to run: the EXPECT block cannot hold or fail meaningfully
        result.status = "error"
        result.failures = problems
        result.seconds = time.perf_counter() - start
        return result
    try:
        with torch.device(test_device()):
            _run_modes(case, base, rules, result)
    except Exception as exc:  # noqa: BLE001 - a broken case/harness must not take the run down
        result.failures.append("harness error: " + "".join(traceback.format_exception(exc))[-3000:])
    if result.failures and result.status == "pass":
        result.status = "fail"
    result.seconds = time.perf_counter() - start
    return result


def _run_modes(case: Case, base: str, rules, result: CaseResult) -> None:
    """Run the case once per ``dynamic`` mode it asks for; with two, every failure names its mode
    and the trace, diff and summary are the static run's."""
    modes = case.dynamic_modes
    if len(modes) == 1:
        _run(case, base, rules, result, modes[0])
        return
    for dynamic in modes:
        one = CaseResult(case_id=result.case_id, path=result.path, base=base, rules=result.rules)
        _run(case, base, rules, one, dynamic)
        result.failures += [f"dynamic={dynamic}: {f}" for f in one.failures]
        result.candidates += one.candidates
        if not dynamic:
            result.got, result.trace, result.diff = one.got, one.trace, one.diff


def _run(case: Case, base: str, rules, result: CaseResult, dynamic: Optional[bool] = None) -> None:
    fn, make_inputs, reference = case.load()

    for e in case.of_kind("eager_raises", base=base):
        run = run_calls(fn, fresh_inputs(make_inputs), case.mode, 1)
        if not raised(run.error, e.subject):
            got = "returned normally" if run.error is None else f"raised {_error_text(run.error)}"
            result.failures.append(f"{e.text}: eager {got}")

    matches = case.of_kind("matches_eager", base=base)
    refusals = case.of_kind("compile_raises", base=base)
    eager = None
    if matches or refusals:   # a refusal only means something for a program eager runs
        eager = run_calls(reference or fn, fresh_inputs(make_inputs), case.mode, case.calls)
        if eager.error is not None:
            who = "reference" if reference else "eager"
            result.failures.append(f"{who} raised on call {eager.failed_call + 1}: {_error_text(eager.error)}")

    with _rewrite_warnings() as warned:
        compiled_fn, backend = compile_case(fn, case, base, rules, dynamic)
        with auto_functionalized(case.auto_functionalized):   # compiling happens on the first call
            compiled = run_calls(compiled_fn, fresh_inputs(make_inputs), case.mode, case.calls)
    result.failures += _warning_problems(case.of_kind("warns", base=base), warned)
    reports: List[Report] = list(getattr(backend, "reports", []))
    if compiled.error is not None and (matches or not (case.of_kind("eager_raises", base=base) or refusals)):
        result.failures.append(f"compiled ({base}) raised on call {compiled.failed_call + 1}: "
                               f"{_error_text(compiled.error)}")
    for e in refusals:
        if compiled.error is None:
            result.failures.append(f"{e.text}: the compiled program ran all {case.calls} calls")
        elif not raised(compiled.error, e.subject) or e.because not in error_chain_text(compiled.error):
            result.failures.append(f"{e.text}: compiled raised {_error_text(compiled.error)}")

    if matches and eager is not None and eager.error is None and compiled.error is None:
        e = matches[0]
        for call, (want, got) in enumerate(zip(eager.snapshots, compiled.snapshots), 1):
            problems = compare(want, got, exact=e.exact, rtol=e.rtol, atol=e.atol)
            if problems:
                result.failures.append(f"matches_eager: call {call} of {case.calls} differs from "
                                       f"{'the reference' if reference else 'eager'}:\n  " + "\n  ".join(problems))
                break

    result.failures += check_reports(case.on_base(base), reports)
    result.candidates = [c for r in reports for c in r.candidates]
    result.got = describe_got(case.rules, reports)
    names = set(case.rules)
    result.trace = [c.line() for c in result.candidates if not names or c.rule in names]
    result.diff = graph_diff(reports)


@contextlib.contextmanager
def _rewrite_warnings():
    """The messages the ``rewrite`` loggers warn with inside the block."""
    messages: List[str] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = lambda record: messages.append(record.getMessage())
    logger = logging.getLogger("rewrite")
    logger.addHandler(handler)
    try:
        yield messages
    finally:
        logger.removeHandler(handler)


def _warning_problems(expected, warned: List[str]) -> List[str]:
    """A warning no ``warns`` line expects, and a ``warns`` line no warning matches."""
    out = [f"rewrite warned, and no `warns:` line expects it: {w}" for w in warned
           if not any(e.subject in w for e in expected)]
    return out + [f"{e.text}: no warning of rewrite contains that" for e in expected
                  if not any(e.subject in w for w in warned)]
