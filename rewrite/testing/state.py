"""Snapshots of what a call left behind (outputs, every input's state, gradients) and their
comparison between an eager run and a compiled run."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional, Tuple

import torch
from torch.utils._pytree import tree_flatten


@dataclass
class Snapshot:
    """Everything observable after one call, as ``(label, value)`` pairs: tensors are cloned so
    later calls cannot change them."""

    items: List[Tuple[str, Any]] = field(default_factory=list)


def _freeze(value):
    if isinstance(value, torch.Tensor):
        return value.detach().clone()
    return value


def snapshot(outputs, inputs, grads: bool) -> Snapshot:
    snap = Snapshot()
    flat_out, _ = tree_flatten(outputs)
    for i, value in enumerate(flat_out):
        snap.items.append((f"output[{i}]", _freeze(value)))
    flat_in, _ = tree_flatten(list(inputs))
    snap.items.append(("memory shared by the outputs", sharing(flat_out, flat_in)))
    for i, value in enumerate(flat_in):
        if not isinstance(value, torch.Tensor):
            continue
        snap.items.append((f"input[{i}]", _freeze(value)))
        if value._base is not None:
            # The input is a view: a write through it may reach memory outside the view.
            snap.items.append((f"input[{i}]._base", _freeze(value._base)))
        if grads and value.requires_grad:
            snap.items.append((f"input[{i}].grad", _freeze(value.grad)))
    return snap


def sharing(outputs, inputs) -> tuple:
    """For each output tensor, the inputs and earlier outputs whose memory it shares: a caller
    can see it (writing into the result changes the argument), so it must be as in eager."""
    def storage(t):
        if not isinstance(t, torch.Tensor) or t.layout != torch.strided:
            return None
        return t.untyped_storage().data_ptr() or None          # empty storages share address 0

    ins = [storage(t) for t in inputs]
    outs = [storage(t) for t in outputs]
    return tuple((tuple(j for j, p in enumerate(ins) if p is not None and p == ptr),
                  tuple(k for k in range(i) if ptr is not None and outs[k] == ptr))
                 for i, ptr in enumerate(outs) if ptr is not None)


def compare(expected: Snapshot, actual: Snapshot, exact: bool, rtol: float, atol: float) -> List[str]:
    """Differences between two snapshots, one message per differing item (empty: identical)."""
    problems: List[str] = []
    if [label for label, _ in expected.items] != [label for label, _ in actual.items]:
        return [f"different structure: eager has {[l for l, _ in expected.items]}, "
                f"compiled has {[l for l, _ in actual.items]}"]
    for (label, want), (_, got) in zip(expected.items, actual.items):
        message = compare_values(want, got, exact, rtol, atol)
        if message:
            problems.append(f"{label}: {message}")
    return problems


def compare_values(want, got, exact: bool, rtol: float, atol: float) -> Optional[str]:
    if isinstance(want, torch.Tensor) != isinstance(got, torch.Tensor):
        return f"eager gave {type(want).__name__}, compiled gave {type(got).__name__}"
    if not isinstance(want, torch.Tensor):
        return None if want == got else f"eager gave {want!r}, compiled gave {got!r}"
    if want.dtype != got.dtype:
        return f"dtype {got.dtype} != eager {want.dtype}"
    if want.shape != got.shape:
        return f"shape {tuple(got.shape)} != eager {tuple(want.shape)}"
    if not (want.is_floating_point() or want.is_complex()) or exact:
        same = torch.equal(want, got) or (
            (want.is_floating_point() or want.is_complex())
            and bool(((want == got) | (want.isnan() & got.isnan())).all()))
        if same:
            return None
        diff = (want != got)
        where = diff.nonzero()[0].tolist() if diff.any() else []
        return (f"not equal at {int(diff.sum())} of {want.numel()} elements; first at {where}: "
                f"eager {want[tuple(where)].item() if where else want.item()!r}, "
                f"compiled {got[tuple(where)].item() if where else got.item()!r}")
    try:
        torch.testing.assert_close(got, want, rtol=rtol, atol=atol, equal_nan=True)
    except AssertionError as exc:
        return " ".join(str(exc).split())
    return None
