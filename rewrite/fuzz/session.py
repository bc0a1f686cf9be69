"""A fuzz run: programs 0..n-1 of a seed, judged in worker processes, then the failures
minimized and written out as corpus cases.

Without steering, program ``i`` depends only on ``(seed, i)`` and the options, so
``--only i`` reproduces it alone.  With steering (``--rules``), programs are made in batches of
:data:`BATCH` and each batch is steered by the coverage of all earlier ones, in program order: a
run is still reproducible (independent of ``-j``), but program ``i`` needs the programs before it.
"""
from __future__ import annotations

import multiprocessing
import os
import textwrap
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from rewrite.fuzz.oracle import BASE_BACKENDS
from rewrite.fuzz.oracle import FLOAT_TOLERANCE, Verdict
from rewrite.fuzz.program import Program
from rewrite.fuzz.reference import CALLS
from rewrite.fuzz.steer import Coverage, Steering
from rewrite.fuzz.worker import (MinimizeResult, MinimizeTask, ProgramResult, ProgramTask, init_worker,
                                 quiet, run_minimize, run_program)

BATCH = 32
BASES = ("eager", "inductor")
MAX_TASKS_PER_WORKER = 400       # fresh processes now and then keep compiler caches from piling up


@dataclass
class FuzzConfig:
    n: int = 100
    seed: int = 0
    bases: Tuple[str, ...] = ("eager",)
    rules: Optional[List[str]] = None
    jobs: int = 1
    features: Optional[List[str]] = None
    dynamic: str = "mixed"
    only: Optional[List[int]] = None           # just these program indices (unsteered runs)
    steer: bool = False
    aot_eager: bool = False
    timeout: float = 600.0                     # per program
    minimize: bool = True
    max_minimize: int = 12                     # failing programs minimized per run
    minimize_evaluations: int = 40
    minimize_seconds: Optional[float] = 600.0
    out: Optional[str] = None                  # where minimized failures are written as cases
    command: str = "rewrite fuzz"              # how to say it in the cases' docstrings


@dataclass
class FuzzRun:
    config: FuzzConfig
    results: List[ProgramResult] = field(default_factory=list)
    minimized: Dict[int, MinimizeResult] = field(default_factory=dict)
    cases: Dict[int, Path] = field(default_factory=dict)
    coverage: Optional[Coverage] = None
    seconds: float = 0.0
    programs_seconds: float = 0.0             # wall time of the judging phase

    def with_class(self, *classes: str) -> List[ProgramResult]:
        return [r for r in self.results if r.cls in classes]

    @property
    def failed(self) -> bool:
        """Some program is wrong or crashes under rewrite while its judge is right."""
        return bool(self.with_class("ours"))


def program_indices(config: FuzzConfig) -> List[int]:
    return sorted(set(config.only)) if config.only else list(range(config.n))


class Pool:
    """``-j N`` spawned worker processes, or the calling process for ``-j 1``.  Workers are
    replaced after ``MAX_TASKS_PER_WORKER`` programs each, by a fresh executor for the next
    round of tasks (``max_tasks_per_child`` of Python 3.11's executor can hang when it replaces
    a worker: the long run stopped that way after exactly 2 x 400 programs)."""

    def __init__(self, jobs: int, rules: Optional[Sequence[str]]):
        self.rules = list(rules) if rules else None
        self.jobs = jobs
        self.threads = max(1, (os.cpu_count() or 1) // jobs)
        self.executor = None
        self.done_here = 0              # tasks the current executor has run

    def _executor(self, upcoming: int) -> ProcessPoolExecutor:
        if self.executor is not None and self.done_here + upcoming > self.jobs * MAX_TASKS_PER_WORKER:
            self.executor.shutdown(wait=True)
            self.executor = None
        if self.executor is None:
            self.executor = ProcessPoolExecutor(
                max_workers=self.jobs, mp_context=multiprocessing.get_context("spawn"), initializer=init_worker,
                initargs=(self.rules, self.threads))
            self.done_here = 0
        self.done_here += upcoming
        return self.executor

    def map(self, fn: Callable, tasks: Sequence, on_result: Optional[Callable] = None,
            on_crash: Optional[Callable] = None) -> List:
        """Results in the order of ``tasks``; ``on_result`` as each arrives.  A worker that dies
        (a native crash in a compiled program) breaks the executor: the tasks it left unfinished
        run again in a fresh one; a task left unfinished by two such deaths then runs alone, and
        if its worker dies again it gets ``on_crash(task, message)`` as its result, so one bad
        program never ends a long run."""
        if self.jobs <= 1:
            out = []
            for t in tasks:
                with quiet():
                    out.append(fn(t, self.rules))
                if on_result:
                    on_result(out[-1])
            return out
        results: Dict[int, object] = {}
        crashes: Dict[int, int] = {}
        per_round = self.jobs * MAX_TASKS_PER_WORKER
        pending = list(enumerate(tasks))
        while pending:
            chunk, pending = pending[:per_round], pending[per_round:]
            executor = self._executor(len(chunk))
            futures = {executor.submit(fn, t, self.rules): (i, t) for i, t in chunk}
            unfinished = []
            for f in _as_completed(futures):
                i, t = futures[f]
                try:
                    results[i] = f.result()
                except BrokenProcessPool:
                    unfinished.append((i, t))
                    continue
                if on_result:
                    on_result(results[i])
            if unfinished:
                self._discard_executor()
                retry = []
                for i, t in unfinished:
                    crashes[i] = crashes.get(i, 0) + 1
                    if crashes[i] < 2 or on_crash is None:
                        retry.append((i, t))
                        continue
                    results[i] = self._alone(fn, t, on_crash)    # which one kills its worker?
                    if on_result:
                        on_result(results[i])
                pending = retry + pending
        return [results[i] for i in range(len(tasks))]

    def _alone(self, fn: Callable, task, on_crash: Callable):
        """Run one task in an executor of its own: a break is then its own doing."""
        future = self._executor(1).submit(fn, task, self.rules)
        try:
            return future.result()
        except BrokenProcessPool:
            self._discard_executor()
            return on_crash(task, "its worker process died (a native crash), also when it ran alone")

    def _discard_executor(self, wait: bool = False) -> None:
        if self.executor is not None:
            self.executor.shutdown(wait=wait, cancel_futures=True)
            self.executor = None

    def close(self) -> None:
        self._discard_executor(wait=True)


def _as_completed(futures: Iterable[Future]):
    from concurrent.futures import as_completed

    return as_completed(list(futures))


def run_fuzz(config: FuzzConfig, on_result: Optional[Callable[[ProgramResult], None]] = None,
             on_minimized: Optional[Callable[[MinimizeResult], None]] = None) -> FuzzRun:
    start = time.perf_counter()
    run = FuzzRun(config, coverage=Coverage.for_rules(config.rules))
    steering = Steering(run.coverage) if config.steer else None
    pool = Pool(config.jobs, config.rules)
    try:
        indices = program_indices(config)
        batches = [indices[i:i + BATCH] for i in range(0, len(indices), BATCH)] if steering else [indices]
        for batch in batches:
            tasks = [ProgramTask(config.seed, i, tuple(config.bases), config.features, config.dynamic,
                                 steering.task_state(config.seed, i) if steering else None,
                                 config.aot_eager, config.timeout) for i in batch]
            results = pool.map(run_program, tasks, on_result, on_crash=_program_crashed)
            for r in results:
                new = run.coverage.add(r.candidates)
                if steering and r.program is not None:
                    steering.observe(r.program, new, r.candidates)
            if steering:
                steering.end_batch()
            run.results += results
        run.programs_seconds = time.perf_counter() - start
        if config.minimize:
            tasks = [MinimizeTask(r.program, r.verdict, r.verdict.failing_base(), config.minimize_evaluations,
                                  config.minimize_seconds) for r in select_for_minimizing(run.results, config.max_minimize)]
            for m in pool.map(run_minimize, tasks, on_minimized, on_crash=_minimize_crashed):
                run.minimized[m.index] = m
    finally:
        pool.close()
    if config.out:
        write_cases(run)
    run.seconds = time.perf_counter() - start
    return run


def _program_crashed(task: ProgramTask, message: str) -> ProgramResult:
    return ProgramResult(task.index, status="error", error=message)


def _minimize_crashed(task: MinimizeTask, message: str) -> MinimizeResult:
    return MinimizeResult(task.program.index, task.program, task.verdict, complete=False, error=message)


def signature(result: ProgramResult) -> tuple:
    """Failures that probably share a cause: same class and base, same backends failing the same
    way (exception type), and for a wrong result of ours the same rules fired."""
    v = result.verdict
    base = v.failing_base()
    parts = [v.cls, base]
    for name in BASE_BACKENDS[base]:
        o = v.outcomes.get(name)
        if o is not None and o.bad:
            parts.append((name, o.status, o.error_type, tuple(o.fired()) if o.status == "wrong" else ()))
    return tuple(parts)


def select_for_minimizing(results: Sequence[ProgramResult], limit: int) -> List[ProgramResult]:
    """Up to ``limit`` failing programs: first one per signature (ours first, then both, stock),
    then more of each in program order."""
    failing = [r for r in results if r.verdict is not None and r.cls in ("ours", "both", "stock")]
    rank = {"ours": 0, "both": 1, "stock": 2}
    failing.sort(key=lambda r: (rank[r.cls], r.index))
    chosen: List[ProgramResult] = []
    seen = set()
    for r in failing:
        if signature(r) not in seen:
            seen.add(signature(r))
            chosen.append(r)
    for r in failing:
        if r not in chosen:
            chosen.append(r)
    return sorted(chosen[:limit], key=lambda r: r.index)


def write_cases(run: FuzzRun) -> None:
    """Every minimized failure (every failure, without minimizing) as a corpus case file in
    ``config.out``."""
    if not run.config.minimize:   # as they are
        for r in run.with_class("ours", "both", "stock"):
            run.cases[r.index] = write_case(run.config.out, r.program, r.verdict, r.verdict.failing_base(),
                                            run.config.command)
        return
    by_index = {r.index: r for r in run.results}
    for index, m in sorted(run.minimized.items()):
        if m.error:
            continue
        original = by_index[index]
        base = original.verdict.failing_base()
        run.cases[index] = write_case(run.config.out, m.program, m.verdict, base, run.config.command,
                                      original.program.size)


# --------------------------------------------------------------------------- corpus cases
# A failing program written out as a corpus case (the format of docs/corpus.md): the same
# ``fn`` and ``inputs``, ``EXPECT = matches_eager`` (exact unless the program does inexact float
# math), ``inductor`` when the failure was seen through Inductor, ``CALLS = 3``, and a docstring
# saying how it was found.

WIDTH = 96


def case_name(program: Program) -> str:
    return f"fuzz_s{program.seed}_p{program.index}"


def _doc_safe(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


def docstring(program: Program, verdict: Verdict, base: str, command: str,
              original_size: Optional[int] = None) -> str:
    cls = verdict.classes.get(base, verdict.cls)
    head = f"Found by `{command}` (program {program.index})"
    if original_size is not None and original_size != program.size:
        head += f", minimized from {original_size} to {program.size} statements"
    head += f": {cls} on base {base}."
    lines = textwrap.wrap(head, WIDTH)
    lines.append("")
    for name in BASE_BACKENDS[base]:
        outcome = verdict.outcomes.get(name)
        if outcome is not None:
            lines += textwrap.wrap(f"{name}: {outcome.describe()}", WIDTH, subsequent_indent="    ")
    fired = sorted({r for n in BASE_BACKENDS[base] if n in verdict.outcomes for r in verdict.outcomes[n].fired()})
    if fired:
        lines.append(f"Rules fired: {', '.join(fired)}.")
    return "\n".join(_doc_safe(line) for line in lines)


def expect_block(program: Program, base: str) -> List[str]:
    match = "matches_eager exact" if program.exact else \
        f"matches_eager atol={FLOAT_TOLERANCE:g} rtol={FLOAT_TOLERANCE:g}"
    return [match] + (["inductor"] if base == "inductor" else [])


def case_text(program: Program, verdict: Verdict, base: str, command: str,
              original_size: Optional[int] = None) -> str:
    parts = [f'"""{docstring(program, verdict, base, command, original_size)}\n"""', "import torch", "",
             'EXPECT = """', *expect_block(program, base), '"""',
             f'MODE = "{program.mode}"', f"CALLS = {CALLS}", f"DYNAMIC = {program.dynamic}",
             *([f'AUTO_FUNCTIONALIZED = "{program.auto_functionalized}"'] if program.auto_functionalized else []),
             "", "", *program.op_lines(), *program.fn_lines(), "", "", *program.inputs_lines()]
    return "\n".join(parts) + "\n"


def write_case(directory, program: Program, verdict: Verdict, base: str, command: str,
               original_size: Optional[int] = None) -> Path:
    path = Path(directory) / f"{case_name(program)}.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(case_text(program, verdict, base, command, original_size))
    return path
