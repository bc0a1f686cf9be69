"""Running a case's function: fresh deterministic inputs, the case's autograd mode, several
calls on the same tensors, a snapshot after each call."""
from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from typing import Callable, List, Optional

import torch
from torch.utils._pytree import tree_flatten

from rewrite.testing.state import Snapshot, snapshot

INPUT_SEED = 0


def fresh_inputs(make_inputs: Callable) -> tuple:
    """The case's inputs, identical on every call (seeded), as a tuple."""
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(INPUT_SEED)
        value = make_inputs()
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def mode_context(mode: str):
    """Inference cases run under ``torch.inference_mode()``: that is what makes AOTAutograd keep
    input mutations in the graph as ``copy_`` epilogues, which the reinplace rules look for."""
    return torch.inference_mode() if mode == "inference" else contextlib.nullcontext()


AUTO_FUNCTIONALIZED = ("v1", "v2")


def auto_functionalized(version: Optional[str]):
    """Compile (and run) under ``auto_functionalized`` ``"v1"`` or ``"v2"``; None: torch's setting.

    It is ``torch._inductor.config.enable_auto_functionalized_v2``, read when AOTAutograd
    functionalizes a call of a custom op that mutates its arguments, so it applies to every
    backend built on AOTAutograd (``aot_eager``, Inductor, both bases of ``make_backend``) and
    must be in force when the compiled function first runs (``torch.compile`` is lazy), and in
    training also when the backward runs."""
    if version is None:
        return contextlib.nullcontext()
    if version not in AUTO_FUNCTIONALIZED:
        raise ValueError(f"auto_functionalized must be one of {', '.join(AUTO_FUNCTIONALIZED)}, not {version!r}")
    import torch._inductor.config as inductor_config

    return inductor_config.patch(enable_auto_functionalized_v2=version == "v2")


@dataclass
class Run:
    snapshots: List[Snapshot] = field(default_factory=list)
    error: Optional[BaseException] = None
    failed_call: Optional[int] = None


def run_calls(fn: Callable, inputs: tuple, mode: str, calls: int) -> Run:
    """Call ``fn(*inputs)`` ``calls`` times on the same tensors.  In training mode, after each
    call, backpropagate a fixed pseudo-random cotangent through every floating output that
    requires grad; gradients of the inputs accumulate across calls like in a training loop.
    The cotangents are small integers, so that a program of integer values has exact gradients
    whatever order a compiler sums them in (``randn`` ones made every reduction in a backward
    differ from eager in the last bit under Inductor's fused loops)."""
    run = Run()
    for call in range(calls):
        try:
            with mode_context(mode):
                outputs = fn(*inputs)
            if mode == "training":
                _backward(outputs, seed=1000 + call)
        except Exception as exc:  # noqa: BLE001 - reported as the case's outcome
            run.error, run.failed_call = exc, call
            return run
        run.snapshots.append(snapshot(outputs, inputs, grads=mode == "training"))
    return run


def _backward(outputs, seed: int) -> None:
    flat, _ = tree_flatten(outputs)
    tensors = [t for t in flat if isinstance(t, torch.Tensor) and t.requires_grad and t.is_floating_point()]
    if not tensors:
        return
    gen = torch.Generator(device="cpu").manual_seed(seed)   # drawn on the CPU: same values on any device
    cotangents = [torch.randint(-3, 4, t.shape, generator=gen, device="cpu").to(dtype=t.dtype, device=t.device)
                  for t in tensors]
    torch.autograd.backward(tensors, cotangents)


def error_chain_text(error: Optional[BaseException]) -> str:
    """The messages of ``error`` and every exception it wraps, one per line."""
    texts, seen = [], set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        texts.append(str(error))
        error = error.__cause__ or error.__context__
    return "\n".join(texts)


def raised(error: Optional[BaseException], name: str) -> bool:
    """``error`` is (or wraps, through ``__cause__``) an exception whose class, or a base class,
    is called ``name``."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if any(cls.__name__ == name for cls in type(error).__mro__):
            return True
        error = error.__cause__ or error.__context__
    return False
