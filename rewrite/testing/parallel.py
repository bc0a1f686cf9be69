"""Running many cases, in worker processes when that helps."""
from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Callable, Iterator, List, Optional, Sequence

from rewrite.testing.runner import CaseResult, run_case


def default_jobs() -> int:
    return max(1, min(2, os.cpu_count() or 1))


def _init_worker(threads: int) -> None:
    import torch

    torch.set_num_threads(threads)


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
    threads = max(1, (os.cpu_count() or 1) // jobs)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_init_worker,
                             initargs=(threads,)) as pool:
        futures = {pool.submit(_run_one, str(p), base, rules): i for i, p in enumerate(paths)}
        for future in as_completed(futures):
            i = futures[future]
            try:
                yield i, future.result()
            except Exception as exc:  # noqa: BLE001 - a crashed worker fails its case, not the run
                p = Path(paths[i])
                yield i, CaseResult(case_id=f"{p.parent.name}/{p.stem}", path=str(p), base=base,
                                    status="fail", failures=[f"worker crashed: {exc!r}"])
