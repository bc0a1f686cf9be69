"""The work of one worker process (or of the main process with ``-j 1``): generate and judge one
program; minimize one failing program.  Tasks and results are plain picklable dataclasses."""
from __future__ import annotations

import contextlib
import logging
import os
import signal
import time
import traceback
import warnings
from dataclasses import dataclass, field
from typing import List, Optional, Sequence, Tuple

from rewrite.fuzz.oracle import BASE_BACKENDS, classify, references, same_failure
from rewrite.fuzz.features import Knobs
from rewrite.fuzz.generator import generate
from rewrite.fuzz.oracle import BackendFactory, Verdict, evaluate, run_backend
from rewrite.fuzz.program import Program, minimize
from rewrite.fuzz.reference import InvalidProgram, reference
from rewrite.fuzz.steer import SteerState


@dataclass
class ProgramTask:
    seed: int
    index: int
    bases: Tuple[str, ...] = ("eager",)
    features: Optional[List[str]] = None
    dynamic: str = "mixed"
    steer: Optional[SteerState] = None
    aot_eager: bool = False
    timeout: float = 0.0           # seconds for the whole program (0: none)


@dataclass
class ProgramResult:
    index: int
    program: Optional[Program] = None
    verdict: Optional[Verdict] = None
    attempts: int = 0
    parent: Optional[int] = None   # steered: the index of the program it was mutated from
    status: str = ""               # "" (judged), "invalid" (no fair program), "error" (harness error, timeout)
    error: str = ""
    gen_seconds: float = 0.0
    seconds: float = 0.0

    @property
    def cls(self) -> str:
        return self.verdict.cls if self.verdict is not None else self.status

    @property
    def candidates(self) -> list:
        if self.verdict is None:
            return []
        for name in ("rewrite-eager", "rewrite-inductor"):
            if name in self.verdict.outcomes:
                return self.verdict.outcomes[name].candidates
        return []


@dataclass
class MinimizeTask:
    program: Program
    verdict: Verdict
    base: str
    max_evaluations: int = 40
    max_seconds: Optional[float] = None


@dataclass
class MinimizeResult:
    index: int
    program: Program
    verdict: Verdict
    evaluations: int = 0
    steps: List[str] = field(default_factory=list)
    complete: bool = True
    seconds: float = 0.0
    error: str = ""


class ProgramTimeout(Exception):
    pass


_factory: Optional[BackendFactory] = None
_rules: Optional[Tuple[str, ...]] = None
_quiet_worker = None


def init_worker(rules: Optional[Sequence[str]], threads: Optional[int] = None) -> None:
    """In a worker process: torch threads, a single Inductor compile thread (the workers are the
    parallelism), quiet logs and warnings, the rule sets loaded once."""
    import torch

    if threads:
        torch.set_num_threads(threads)
    try:
        import torch._inductor.config as inductor_config

        inductor_config.compile_threads = 1
    except ImportError:  # pragma: no cover - inductor always ships with torch
        pass
    global _quiet_worker
    _quiet_worker = quiet()     # kept referenced: entered for the life of the worker
    _quiet_worker.__enter__()
    factory(rules)


@contextlib.contextmanager
def quiet():
    """Rules that fail to apply, Dynamo's and Inductor's warnings: the verdict says what matters
    (``REWRITE_LOG`` keeps the rewrite log on)."""
    loggers = [logging.getLogger("torch")] + ([] if os.environ.get("REWRITE_LOG") else [logging.getLogger("rewrite")])
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            yield
        finally:
            for lg, level in zip(loggers, levels):
                lg.setLevel(level)


def factory(rules: Optional[Sequence[str]] = None) -> BackendFactory:
    """This process's backends for ``rules`` (set up on first use)."""
    global _factory, _rules
    key = tuple(rules) if rules else None
    if _factory is None or _rules != key:
        _factory, _rules = BackendFactory(rules), key
    return _factory


@contextlib.contextmanager
def time_limit(seconds: float):
    """Raise :class:`ProgramTimeout` after ``seconds`` (main thread, POSIX; else no limit)."""
    usable = seconds and hasattr(signal, "setitimer")
    if usable:
        try:
            def on_alarm(signum, frame):
                raise ProgramTimeout(f"timed out after {seconds:g} s")

            previous = signal.signal(signal.SIGALRM, on_alarm)
        except ValueError:   # not the main thread
            usable = False
    if usable:
        signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        if usable:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)


def run_program(task: ProgramTask, rules: Optional[Sequence[str]] = None) -> ProgramResult:
    """Generate program ``task.index`` and judge it on every base; never raises."""
    start = time.perf_counter()
    result = ProgramResult(task.index)
    fac = factory(rules)
    knobs = Knobs(task.features, task.steer.multipliers if task.steer else None)
    parent = task.steer.parent if task.steer else None
    if parent is not None:
        result.parent = parent.index
    try:
        with time_limit(task.timeout):
            try:
                program, ref_run, attempts = generate(task.seed, task.index, knobs, task.dynamic, parent)
            except InvalidProgram:
                if parent is None:
                    raise
                result.parent = None   # no fair variant of the parent: a fresh program
                program, ref_run, attempts = generate(task.seed, task.index, knobs, task.dynamic)
            result.program, result.attempts = program, attempts
            result.gen_seconds = time.perf_counter() - start
            result.verdict = evaluate(program, ref_run, task.bases, fac, aot_eager=task.aot_eager)
    except InvalidProgram as exc:
        result.status, result.error = "invalid", str(exc)
    except ProgramTimeout as exc:
        result.status, result.error = "error", str(exc)
    except Exception as exc:  # noqa: BLE001 - a harness bug must not stop the run
        result.status = "error"
        result.error = "".join(traceback.format_exception(exc))[-2000:]
    result.seconds = time.perf_counter() - start
    return result


def failure_predicate(task: MinimizeTask, fac: BackendFactory):
    """Does a smaller program still fail like ``task.program`` on ``task.base``?  The backend
    that failed runs first, so most non-failing candidates cost one compile; the reference
    pipelines that made it ours (or both) run as they did."""
    ours, stock = BASE_BACKENDS[task.base]
    want_class = task.verdict.classes[task.base]
    order = [stock, ours] if want_class == "stock" else [ours, stock]
    order += [name for name in references(task.base) if name in task.verdict.outcomes and name not in order]

    def still_fails(candidate: Program) -> bool:
        try:
            ref = reference(candidate)
        except InvalidProgram:
            return False
        verdict = Verdict()
        for name in order:
            outcome = verdict.outcomes[name] = run_backend(candidate, name, ref, fac)
            old = task.verdict.outcomes.get(name)
            if old is not None and old.bad and outcome.status != old.status:
                return False
        verdict.classes[task.base] = classify(verdict.outcomes, task.base)
        return same_failure(verdict, task.base, want_class, task.verdict)

    return still_fails


def run_minimize(task: MinimizeTask, rules: Optional[Sequence[str]] = None) -> MinimizeResult:
    """Minimize one failing program; never raises."""
    start = time.perf_counter()
    fac = factory(rules)
    out = MinimizeResult(task.program.index, task.program, task.verdict)
    try:
        shrunk = minimize(task.program, failure_predicate(task, fac), task.max_evaluations, task.max_seconds)
        out.program, out.evaluations, out.steps, out.complete = shrunk.program, shrunk.evaluations, shrunk.steps, shrunk.complete
        if shrunk.steps:   # the final verdict of the smaller program, for its docstring
            out.verdict = evaluate(shrunk.program, reference(shrunk.program), [task.base], fac)
    except Exception as exc:  # noqa: BLE001
        out.error = "".join(traceback.format_exception(exc))[-2000:]
    out.seconds = time.perf_counter() - start
    return out
