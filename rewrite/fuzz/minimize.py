"""Shrinking a failing program while it keeps failing the same way (greedy delta debugging).

The reductions are :meth:`Program.reductions` (drop a statement with everything that depends on
it, a nested statement, a returned value, an unused input or setup line; make it static).  The
first reduction that still fails is taken and the search starts over, until no reduction fails
(the result is 1-minimal for these reductions) or the budget of evaluations is spent.  Programs
already tried are remembered by source, and the predicate is deterministic, so the result depends
only on the program and the budget.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, List, Optional

from rewrite.fuzz.program import Program

DEFAULT_EVALUATIONS = 40


@dataclass
class Shrunk:
    program: Program
    evaluations: int = 0
    steps: List[str] = field(default_factory=list)   # the reductions taken, in order
    complete: bool = True                             # False: the budget ran out first


def minimize(program: Program, still_fails: Callable[[Program], bool],
             max_evaluations: int = DEFAULT_EVALUATIONS, max_seconds: Optional[float] = None) -> Shrunk:
    """The smallest variant of ``program`` found for which ``still_fails`` holds (``program``
    itself is assumed to fail)."""
    start = time.perf_counter()
    result = Shrunk(program)
    tried = {_key(program)}
    improved = True
    while improved:
        improved = False
        for description, candidate in result.program.reductions():
            key = _key(candidate)
            if key in tried:
                continue
            if result.evaluations >= max_evaluations or (
                    max_seconds is not None and time.perf_counter() - start > max_seconds):
                result.complete = False
                return result
            tried.add(key)
            result.evaluations += 1
            if still_fails(candidate):
                result.program = candidate
                result.steps.append(description)
                improved = True
                break
    return result


def _key(program: Program) -> str:
    return f"{program.source()}\n# mode={program.mode} dynamic={program.dynamic}"
