"""Memory regions of tensors: the set of element addresses
``{offset + sum_k i_k * strides[k] : 0 <= i_k < sizes[k]}`` in one storage, of a tensor, of an FX
node's value and of the destination a scatter writes, and the regions of views computed
arithmetically (so they work on symbolic shapes).  Addresses are in elements of ``itemsize``
bytes; comparisons between regions are made in bytes so that dtype views
(``x.view(torch.int32)``) are handled.  Whether two regions may overlap: ``overlap.py``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional

import sympy
import torch
from torch.multiprocessing.reductions import StorageWeakRef

from rewrite.analysis.facts.mutation import MISSING, bound_arguments
from rewrite.analysis.semantics.symbolic import _floordiv, _max, _min, _normalize, _proved_le, _proved_lt, _simplify, _sub


#: ``aten.slice`` encodes an omitted ``end`` as INT64_MAX.
_INT64_MAX = (1 << 63) - 1

aten = torch.ops.aten


@dataclass(frozen=True)
class Region:
    """Addresses ``offset + sum(i_k * strides[k])`` (in elements) of a storage."""

    storage: object
    offset: object
    sizes: tuple
    strides: tuple
    itemsize: int

    @property
    def ndim(self) -> int:
        return len(self.sizes)

    def is_concrete(self) -> bool:
        return all(isinstance(v, int) for v in (self.offset, *self.sizes, *self.strides))

# --------------------------------------------------------------------------
# Building regions
# --------------------------------------------------------------------------


def default_storage_key(t: torch.Tensor):
    """Storage identity of a (possibly fake) tensor, hashable and comparable with anything (a
    tuple: ``StorageWeakRef`` itself fails to compare with other kinds of keys)."""
    return ("storage", StorageWeakRef(t.untyped_storage()).cdata)


def region_of_tensor(t: torch.Tensor, storage_key) -> Region:
    """Region of a strided tensor (real, fake, meta; SymInts allowed)."""
    return Region(
        storage=storage_key,
        offset=_normalize(t.storage_offset()),
        sizes=tuple(_normalize(s) for s in t.shape),
        strides=tuple(_normalize(s) for s in t.stride()),
        itemsize=t.element_size(),
    )


def _tensor_val(node) -> Optional[torch.Tensor]:
    val = node.meta.get("val") if isinstance(node, torch.fx.Node) else None
    if isinstance(val, torch.Tensor) and val.layout == torch.strided:
        return val
    return None


def region_of_node(
    node: torch.fx.Node, storage_key_of: Optional[Callable] = None
) -> Optional[Region]:
    """Region of ``node.meta["val"]``; None when it is not a strided tensor.

    ``storage_key_of(node)`` names the storage; by default the storage of the
    fake value itself (``StorageWeakRef``), which is what FakeTensorMode
    shares between a tensor and its views.
    """
    val = _tensor_val(node)
    if val is None:
        return None
    key = storage_key_of(node) if storage_key_of else default_storage_key(val)
    return region_of_tensor(val, key)


# --------------------------------------------------------------------------
# Views, computed arithmetically (so they work on symbolic shapes)
# --------------------------------------------------------------------------


def _wrap_dim(dim: int, ndim: int) -> int:
    if not -max(ndim, 1) <= dim < max(ndim, 1):
        raise IndexError(f"dim {dim} out of range for {ndim} dims")
    return dim % max(ndim, 1)


def _replace(r: Region, *, offset=None, sizes=None, strides=None) -> Region:
    return Region(
        r.storage,
        _simplify(r.offset if offset is None else offset),
        tuple(_simplify(s) for s in (r.sizes if sizes is None else sizes)),
        tuple(_simplify(s) for s in (r.strides if strides is None else strides)),
        r.itemsize,
    )


def _wrap_index(index, size):
    """ATen's handling of a negative position: add ``size`` once.

    Returns None when the sign of a symbolic position is unknown.
    """
    if _proved_le(0, index):
        return index
    if _proved_lt(index, 0):
        return _simplify(index + size)
    return None


def slice_region(r: Region, dim=0, start=None, end=None, step=1) -> Optional[Region]:
    """Region of ``aten.slice.Tensor(t, dim, start, end, step)``, clamped as ATen.

    Returns None when a symbolic start/end has an unknown sign.
    """
    dim = _wrap_dim(dim, r.ndim)
    size = r.sizes[dim]
    step = _normalize(step)
    start = 0 if start is None else _normalize(start)
    end = size if end is None or end == _INT64_MAX else _normalize(end)
    start, end = _wrap_index(start, size), _wrap_index(end, size)
    if start is None or end is None:
        return None
    start = _min(_max(start, 0), size)
    end = _max(_min(end, size), start)
    length = _floordiv(_simplify(end - start + step - 1), step)
    sizes, strides = list(r.sizes), list(r.strides)
    sizes[dim], strides[dim] = length, strides[dim] * step
    return _replace(r, offset=r.offset + start * r.strides[dim], sizes=sizes, strides=strides)


def select_region(r: Region, dim, index) -> Optional[Region]:
    """Region of ``aten.select.int(t, dim, index)``."""
    dim = _wrap_dim(dim, r.ndim)
    index = _wrap_index(_normalize(index), r.sizes[dim])
    if index is None:
        return None
    return _replace(
        r,
        offset=r.offset + index * r.strides[dim],
        sizes=r.sizes[:dim] + r.sizes[dim + 1 :],
        strides=r.strides[:dim] + r.strides[dim + 1 :],
    )


def diagonal_region(r: Region, offset=0, dim1=0, dim2=1) -> Optional[Region]:
    """Region of ``aten.diagonal.default(t, offset, dim1, dim2)`` (as ATen)."""
    d1, d2 = _wrap_dim(dim1, r.ndim), _wrap_dim(dim2, r.ndim)
    if d1 == d2:
        raise ValueError("diagonal dimensions cannot be identical")
    offset = _normalize(offset)
    n1, n2 = r.sizes[d1], r.sizes[d2]
    if _proved_le(0, offset):
        length, shift = _max(_min(n1, _sub(n2, offset)), 0), offset * r.strides[d2]
    elif _proved_lt(offset, 0):
        length, shift = _max(_min(_simplify(n1 + offset), n2), 0), -offset * r.strides[d1]
    else:
        return None
    if length == 0:  # ATen leaves the storage offset alone for empty diagonals
        shift = 0
    keep = [k for k in range(r.ndim) if k not in (d1, d2)]
    return _replace(
        r,
        offset=r.offset + shift,
        sizes=[r.sizes[k] for k in keep] + [length],
        strides=[r.strides[k] for k in keep] + [r.strides[d1] + r.strides[d2]],
    )


def as_strided_region(r: Region, size, stride, storage_offset=None) -> Region:
    """Region of ``aten.as_strided.default(t, size, stride, storage_offset)``."""
    offset = r.offset if storage_offset is None else _normalize(storage_offset)
    return _replace(
        r,
        offset=offset,
        sizes=[_normalize(s) for s in size],
        strides=[_normalize(s) for s in stride],
    )


def _is_contiguous(r: Region) -> bool:
    expected = 1
    for size, stride in reversed(list(zip(r.sizes, r.strides))):
        if size != 1 and _simplify(stride - expected) != 0:
            return False
        expected = _simplify(expected * size)
    return True


def _as_strided_scatter_region(base: Region, size, stride, storage_offset=None):
    """``as_strided_scatter`` views a *contiguous clone* of its base, so the
    written region lies in the base's storage only when the base already is
    contiguous at offset 0."""
    if base.offset != 0 or not _is_contiguous(base):
        return None
    return as_strided_region(base, size, stride, 0 if storage_offset is None else storage_offset)


_SCATTER_VIEWS = {
    aten.slice_scatter.default: slice_region,
    aten.select_scatter.default: select_region,
    aten.diagonal_scatter.default: diagonal_region,
    aten.as_strided_scatter.default: _as_strided_scatter_region,
}


def _resolve(value):
    """Graph argument -> int / sympy / None (symbolic ints come as Nodes)."""
    if isinstance(value, torch.fx.Node):
        value = value.meta.get("val")
        if value is None:
            raise ValueError("argument without meta['val']")
    if isinstance(value, (list, tuple)):
        return [_resolve(v) for v in value]
    if value is None:
        return None
    return _normalize(value)


def _bound_view_args(node: torch.fx.Node) -> list:
    """The scatter's arguments after ``self, src``, defaults filled in."""
    values = []
    for name, value in bound_arguments(node)[2:]:
        if value is MISSING:
            raise ValueError(f"missing argument {name} of {node.target}")
        values.append(value)
    return [_resolve(v) for v in values]


def scatter_destination(
    node: torch.fx.Node, storage_key_of: Optional[Callable] = None
) -> Optional[Region]:
    """Region of ``node.args[0]`` (the base) that a view scatter writes.

    Handles ``slice_scatter``, ``select_scatter``, ``diagonal_scatter`` and
    ``as_strided_scatter``; None for anything else or when unknown. The view
    is computed arithmetically from the base's region; a size left as an
    unresolved ``Min``/``Max`` is taken from ``src`` instead (the op requires
    the two to be equal).
    """
    if node.op != "call_function" or node.target not in _SCATTER_VIEWS:
        return None
    base = region_of_node(node.args[0], storage_key_of)
    return None if base is None else scatter_destination_of_region(node, base)


def scatter_destination_of_region(node: torch.fx.Node, base: Region) -> Optional[Region]:
    """Like :func:`scatter_destination`, for a base laid out as ``base``."""
    view = _SCATTER_VIEWS.get(node.target) if node.op == "call_function" else None
    if view is None:
        return None
    try:
        dest = view(base, *_bound_view_args(node))
    except (TypeError, ValueError, IndexError):
        return None
    src = _tensor_val(node.args[1]) if len(node.args) > 1 else None
    if dest is not None and src is not None and src.dim() == dest.ndim:
        sizes = [_prefer_simpler(own, _normalize(theirs)) for own, theirs in zip(dest.sizes, src.shape)]
        dest = _replace(dest, sizes=sizes)
    return dest


def _prefer_simpler(own, theirs):
    """Our computed size unless it kept an unresolved clamp (Min/Max) and
    ``src`` offers one without."""
    if isinstance(own, int) or not own.has(sympy.Min, sympy.Max):
        return own
    if isinstance(theirs, int) or not theirs.has(sympy.Min, sympy.Max):
        return theirs
    return own
