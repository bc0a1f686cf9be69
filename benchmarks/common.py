"""Small helpers shared by the benchmarks and examples/mutation_bugs.py: the two real mutation
cases, steady-state timing, peak resident memory and Dynamo's compilations (what the result pages
record about a run is in results_page.py)."""
from __future__ import annotations

import statistics
import time

import torch


# ---------------------------------------------------------------------------------- the cases

def while_cond_mutation(state):
    """Case 1: a while_loop whose cond_fn mutates a captured tensor.  Eager with state=1.0 returns
    (2, 0.6, 0.1) and leaves state at 0.1."""
    state.mul_(0.8)

    def cond(i, acc):
        state.mul_(0.5)
        return i < 2

    def body(i, acc):
        return i + 1, acc + state

    i, acc = torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64, device=state.device),
                                           torch.zeros_like(state)))
    return i, acc, state.clone()


def composed(field, delta, indices, gain):
    """Case 2 as published: update the interior of ``field``, then read-modify-write some rows."""
    field[1:-1].add_(delta)
    values = torch.index_select(field, 0, indices) * gain
    field.index_copy_(0, indices, values)


def composed_small_slice(field, delta, indices, gain):
    """Case 2 with a small slice (as many rows as ``delta`` has), the realistic shape."""
    field[1:1 + delta.shape[0]].add_(delta)
    values = torch.index_select(field, 0, indices) * gain
    field.index_copy_(0, indices, values)


def composed_inputs(rows: int, slice_rows: int, n_indices: int, cols: int = 4, seed: int = 0):
    g = torch.Generator().manual_seed(seed)
    field = torch.randn(rows, cols, generator=g)
    delta = torch.randn(slice_rows, cols, generator=g)
    indices = torch.randperm(rows, generator=g)[:n_indices]
    gain = 1 + 0.01 * torch.randn(n_indices, cols, generator=g)   # keeps values from drifting far over many calls
    return field, delta, indices, gain


# ---------------------------------------------------------------------------------- measuring

def _sync(args) -> None:
    if any(isinstance(a, torch.Tensor) and a.is_cuda for a in args):
        torch.cuda.synchronize()


def steady_ms(fn, args, warmup: int = 3, calls: int = 20) -> float:
    """Median wall time of ``fn(*args)`` in milliseconds, after ``warmup`` calls (on CUDA each
    call is timed to its completion)."""
    for _ in range(warmup):
        fn(*args)
    _sync(args)
    times = []
    for _ in range(calls):
        t0 = time.perf_counter()
        fn(*args)
        _sync(args)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def _status_mib(key: str) -> float:
    with open("/proc/self/status") as f:
        line = next(l for l in f if l.startswith(key + ":"))
    return int(line.split()[1]) / 1024


def peak_extra_mib(fn, args, calls: int = 5):
    """Peak resident memory above the current resident set while calling ``fn(*args)`` ``calls``
    times (Linux: resets VmHWM through /proc/self/clear_refs).  None where that is unavailable.
    Call it after warm-up so compilation is not counted.  On CUDA: the peak of the caching
    allocator above what is allocated before the calls."""
    if any(isinstance(a, torch.Tensor) and a.is_cuda for a in args):
        torch.cuda.synchronize()
        base = torch.cuda.memory_allocated()
        torch.cuda.reset_peak_memory_stats()
        for _ in range(calls):
            fn(*args)
        torch.cuda.synchronize()
        return max(0.0, (torch.cuda.max_memory_allocated() - base) / 2 ** 20)
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        base = _status_mib("VmRSS")
    except OSError:
        return None
    for _ in range(calls):
        fn(*args)
    return max(0.0, _status_mib("VmHWM") - base)


def same(a, b) -> bool:
    """Tensors (and nested tuples of them) equal up to float rounding; other values exactly."""
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and a.shape == b.shape and torch.allclose(a, b, rtol=1e-5, atol=1e-6)
    if isinstance(a, (tuple, list)):
        return isinstance(b, (tuple, list)) and len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return a == b


class CompileWatch:
    """Every compilation torch.compile runs while installed (Dynamo's compile start/end
    callbacks): ``events`` holds (trigger, compile id "frame/compile", seconds).  Triggers:
    "DYNAMO" (a frame traced and compiled) and "LAZY_BACKWARD" (a backward graph compiled on its
    first use).  ``torch._dynamo.reset()`` drops the callbacks: install after it."""

    def __init__(self):
        self.events = []
        self._open = {}

    def __enter__(self):
        torch._dynamo.callback_handler.register_start_callback(self._start)
        torch._dynamo.callback_handler.register_end_callback(self._end)
        return self

    def __exit__(self, *exc):
        torch._dynamo.callback_handler.remove_start_callback(self._start)
        torch._dynamo.callback_handler.remove_end_callback(self._end)

    def _start(self, args) -> None:
        self._open[(args.callback_trigger, args.compile_id)] = time.perf_counter()

    def _end(self, args) -> None:
        t0 = self._open.pop((args.callback_trigger, args.compile_id), None)
        if t0 is not None:
            self.events.append((args.callback_trigger.name, str(args.compile_id), time.perf_counter() - t0))


def recompiles(events) -> int:
    """Compilations of a frame already compiled among ``events`` (CompileWatch events)."""
    frames = [cid.split("/")[0] for trigger, cid, _ in events if trigger == "DYNAMO"]
    return len(frames) - len(set(frames))
