"""Loading a program and its eager reference run, and deciding whether a program is a fair test.

A program is kept only when eager PyTorch runs it ``CALLS`` times (in its autograd mode, with
the backward pass in training mode), every float it leaves behind is finite and small, and its
result does not depend on the order in which eager reads and writes overlapping memory: the same
program with every operand of every write cloned first (``Program.source(functional=True)``)
must give identical results.  Compilers compute mutations functionally, so a program whose eager
result depends on that order has no single right answer.
"""
from __future__ import annotations

import contextlib
import itertools
import linecache
import sys
import types
from typing import Callable, Iterator, Optional, Tuple

import torch

from rewrite.fuzz.program import Program
from rewrite.testing.execute import Run, fresh_inputs, run_calls
from rewrite.testing.state import Snapshot, compare

CALLS = 3
MAX_MAGNITUDE = 1e6      # beyond this, float32 sums of integers stop being exact

KEEP_MODULES = 16
_loads = itertools.count()
_registered: list = []


class InvalidProgram(Exception):
    """Eager PyTorch cannot run the program, or its result is not well defined."""


def load(program: Program, functional: bool = False, wide: bool = False) -> Tuple[Callable, Callable]:
    """``(fn, inputs)`` from freshly compiled source (new code objects every time, so Dynamo's
    caches never mix two programs).  The source is registered with :mod:`linecache`, so
    tracebacks and Dynamo's messages show the program's lines.  ``wide``: the program in float64
    (load and run it under :func:`float64_default`)."""
    source = program.source(functional, wide)
    number = next(_loads)
    filename = f"<rewrite fuzz seed={program.seed} program={program.index} #{number}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    # A real module in sys.modules: Dynamo looks functions' modules up by name.  Only the last
    # few stay registered (their functions keep their globals alive anyway).
    module = types.ModuleType(f"_rewrite_fuzz_program_{number}")
    sys.modules[module.__name__] = module
    _registered.append((module.__name__, filename))
    while len(_registered) > KEEP_MODULES:
        old, old_file = _registered.pop(0)
        sys.modules.pop(old, None)
        linecache.cache.pop(old_file, None)
    exec(compile(source, filename, "exec"), module.__dict__)   # noqa: S102 - our own generated program
    return module.fn, module.inputs


def run_eager(program: Program, functional: bool = False, wide: bool = False) -> Run:
    with float64_default(wide):
        fn, make_inputs = load(program, functional, wide)
        return run_calls(fn, fresh_inputs(make_inputs), program.mode, CALLS)


@contextlib.contextmanager
def float64_default(wide: bool = True) -> Iterator[None]:
    """float64 as the default dtype (for ``torch.zeros(())`` and float literals of a widened
    program) while ``wide``."""
    old = torch.get_default_dtype()
    if wide:
        torch.set_default_dtype(torch.float64)
    try:
        yield
    finally:
        torch.set_default_dtype(old)


def reference(program: Program) -> Run:
    """The eager run every backend is compared with; raises :class:`InvalidProgram`."""
    run = run_eager(program)
    if run.error is not None:
        raise InvalidProgram(f"eager raised on call {run.failed_call + 1}: "
                             f"{type(run.error).__name__}: {_first_line(run.error)}")
    problem = _unfit_value(run)
    if problem:
        raise InvalidProgram(problem)
    if program.source(True) != program.source():
        functional = run_eager(program, functional=True)
        if functional.error is not None:
            raise InvalidProgram(f"the functional form raised: {type(functional.error).__name__}")
        for call, (a, b) in enumerate(zip(run.snapshots, functional.snapshots), 1):
            if compare(a, b, exact=True, rtol=0, atol=0):
                raise InvalidProgram(f"eager's result depends on the order of reads and writes (call {call})")
    return run


def _unfit_value(run: Run) -> Optional[str]:
    for snap in run.snapshots:
        for label, value in snap.items:
            if isinstance(value, torch.Tensor) and value.is_floating_point() and value.numel():
                if not bool(value.isfinite().all()):
                    return f"{label} is not finite"
                if float(value.abs().max()) > MAX_MAGNITUDE:
                    return f"{label} grows beyond {MAX_MAGNITUDE:g}"
    return None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else ""


def snapshot_labels(snapshot: Snapshot):
    return [label for label, _ in snapshot.items]
