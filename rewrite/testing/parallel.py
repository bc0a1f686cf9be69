"""Running many cases, in worker processes when that helps: ``rewrite test -j N`` hands them all
to workers; the pytest plugin lets workers run cases ahead of pytest's own process
(:class:`CasesAhead`)."""
from __future__ import annotations

import multiprocessing
import os
import pickle
import sys
import tempfile
import warnings
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from rewrite.testing.runner import CaseResult, run_case


def default_jobs() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def _init_worker(threads: int) -> None:
    """In a worker process: its share of the CPU threads, and one Inductor compile thread (the
    workers are the parallelism; a pool of compile processes per worker would cost more to start
    than the few kernels of a case take to compile)."""
    import torch
    import torch._inductor.config as inductor_config

    torch.set_num_threads(threads)
    inductor_config.compile_threads = 1


def _spawned_pool(workers: int, threads: int) -> ProcessPoolExecutor:
    # spawn, not fork: a forked copy of a process that has run torch (its thread pools, Inductor's
    # compile workers) is not safe to use.
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_init_worker, initargs=(threads,))


def _run_one(path: str, base: str, rules) -> CaseResult:
    return run_case(Path(path), base=base, rules=rules)


def run_cases(paths: Sequence[Path], base: str = "eager", rules=None, jobs: int = 1,
              on_result: Optional[Callable[[CaseResult], None]] = None) -> List[CaseResult]:
    """Run every case; results come back in the order of ``paths``.  With ``jobs > 1`` the cases
    run in that many fresh (spawned) processes, each with its share of the CPU threads."""
    results: dict = {}
    for index, result in _iterate(list(paths), base, rules, jobs):
        results[index] = result
        if on_result is not None:
            on_result(result)
    return [results[i] for i in range(len(paths))]


def _iterate(paths: List[Path], base: str, rules, jobs: int) -> Iterator:
    if jobs <= 1 or len(paths) <= 1:
        for i, p in enumerate(paths):
            yield i, run_case(p, base=base, rules=rules)
        return
    jobs = min(jobs, len(paths))
    with _spawned_pool(jobs, max(1, (os.cpu_count() or 1) // jobs)) as pool:
        futures = {pool.submit(_run_one, str(p), base, rules): i for i, p in enumerate(paths)}
        for future in as_completed(futures):
            i = futures[future]
            try:
                yield i, future.result()
            except Exception as exc:  # noqa: BLE001 - a crashed worker fails its case, not the run
                p = Path(paths[i])
                yield i, CaseResult(case_id=f"{p.parent.name}/{p.stem}", path=str(p), base=base,
                                    status="fail", failures=[f"worker crashed: {exc!r}"])


# --------------------------------------------------------------------------- cases run ahead


@dataclass
class Outcome:
    """A case run in a worker: its result, what it printed, and the warnings it raised."""

    result: CaseResult
    stdout: str = ""
    stderr: str = ""
    warnings: List[Tuple[str, type, str, int]] = field(default_factory=list)

    def replay(self) -> CaseResult:
        """Print what the worker printed and raise its warnings again, here, where the caller
        (pytest) captures them for the case; then the result."""
        sys.stdout.write(self.stdout)
        sys.stderr.write(self.stderr)
        for message, category, filename, lineno in self.warnings:
            warnings.warn_explicit(message, category, filename, lineno)
        return self.result


def _picklable(category: type) -> type:
    try:
        pickle.dumps(category)
    except Exception:  # noqa: BLE001 - a warning class defined where the caller cannot import it
        return UserWarning
    return category


def _run_captured(path: str, base: str, rules) -> Outcome:
    """Run one case with its output (file descriptors 1 and 2, so also what compiled code and
    torch's C++ print) and its warnings kept for :meth:`Outcome.replay`."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            warnings.catch_warnings(record=True) as caught:
        # pytest's own filters while an item runs: each warning once per place, deprecations
        # every time; the caller's filters apply again when they are replayed.
        warnings.simplefilter("default")
        warnings.filterwarnings("always", category=DeprecationWarning)
        warnings.filterwarnings("always", category=PendingDeprecationWarning)
        sys.stdout.flush()
        sys.stderr.flush()
        saved = os.dup(1), os.dup(2)
        os.dup2(out.fileno(), 1)
        os.dup2(err.fileno(), 2)
        try:
            result = run_case(Path(path), base=base, rules=rules)
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            for fd, copy in zip((1, 2), saved):
                os.dup2(copy, fd)
                os.close(copy)
        texts = []
        for f in (out, err):
            f.seek(0)
            texts.append(f.read().decode(errors="replace"))
        raised = [(str(w.message), _picklable(w.category), w.filename, w.lineno) for w in caught]
    return Outcome(result, texts[0], texts[1], raised)


class CasesAhead:
    """Cases run ahead of the caller by worker processes, from the last one backwards, while the
    caller works through them from the first: :meth:`take` gives the caller a case no worker has
    started (it runs that one itself) or waits for the one a worker has, so the caller and the
    workers meet in the middle and no case runs twice."""

    def __init__(self, cases: Sequence[Tuple[Path, str]], workers: int, rules=None):
        threads = max(1, (os.cpu_count() or 1) // (workers + 1))
        self._pool = _spawned_pool(workers, threads)
        self._futures: Dict[Tuple[str, str], object] = {}
        for path, base in reversed(list(cases)):
            self._futures[(str(path), base)] = self._pool.submit(_run_captured, str(path), base, rules)

    def take(self, path: Path, base: str) -> Optional[Outcome]:
        """The worker's outcome of a case, or None when the caller is to run it: no worker has
        started it, it was never handed to the workers, or its worker failed (a native crash in
        a compiled program kills the process: run here, the crash is the caller's to report)."""
        future = self._futures.pop((str(path), base), None)
        if future is None or future.cancel():
            return None
        try:
            return future.result()
        except Exception:  # noqa: BLE001 - see above: the case runs again in the caller
            return None

    def close(self) -> None:
        """Stop handing out cases; a case a worker has started is finished first."""
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._futures.clear()
