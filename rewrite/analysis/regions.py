"""Memory regions of tensors and whether two of them may overlap.

Reinplacing ``slice_scatter(base, src, ...)`` into ``base[...].copy_(src)`` is
only sound when ``src`` does not share memory with the destination region.
This module answers that question for FX nodes: exactly when shapes are
concrete, and with sympy (sound but incomplete) when they are symbolic.

A :class:`Region` is the set of element addresses
``{offset + sum_k i_k * strides[k] : 0 <= i_k < sizes[k]}`` in one storage.
Addresses are in elements of ``itemsize`` bytes; comparisons between regions
are made in bytes so that dtype views (``x.view(torch.int32)``) are handled.

Every public answer is conservative: ``may_overlap`` returns False only when
disjointness is proven, ``has_internal_overlap`` returns False only when the
absence of aliasing is proven.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import re
from dataclasses import dataclass
from typing import Callable, Mapping, Optional, Sequence

import sympy
import torch
from torch.multiprocessing.reductions import StorageWeakRef

from rewrite.analysis.mutation import MISSING, bound_arguments

__all__ = [
    "Region",
    "region_of_tensor",
    "region_of_node",
    "scatter_destination",
    "may_overlap",
    "has_internal_overlap",
    "slice_region",
    "select_region",
    "diagonal_region",
    "as_strided_region",
    "default_storage_key",
    "ENUMERATION_LIMIT",
]

#: Regions whose address sets together hold at most this many elements are
#: compared by enumerating their addresses when the lattice search gives up.
ENUMERATION_LIMIT = 1 << 22
#: Node budget for the bounded lattice search (see ``_lattice_has_solution``).
_SEARCH_BUDGET = 20_000
#: The prover tries 2**k parametrizations of k floor remainders, up to this k.
_MAX_FLIPPED_REMAINDERS = 6
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
# Symbolic values
# --------------------------------------------------------------------------

_SIZE_SYMBOL = re.compile(r"^s\d+$")


def _from_torch_sympy(expr: sympy.Expr) -> sympy.Expr:
    """Rewrite torch's own sympy functions into plain sympy ones.

    ShapeEnv expressions use ``FloorDiv``/``CeilDiv``/``Max``... from
    ``torch.utils._sympy.functions``; plain sympy reasons better about
    ``floor``/``ceiling``/``Max``, and the prover below understands ``floor``.
    """
    from torch.utils._sympy import functions as F

    rules = {
        F.FloorDiv: lambda a, b: sympy.floor(a / b),
        F.CeilDiv: lambda a, b: sympy.ceiling(a / b),
        F.CleanDiv: lambda a, b: a / b,
        F.PythonMod: sympy.Mod,
        F.Mod: sympy.Mod,
        F.ModularIndexing: lambda a, b, c: sympy.Mod(sympy.floor(a / b), c),
        F.Max: sympy.Max,
        F.Min: sympy.Min,
    }
    for cls, fn in rules.items():
        expr = expr.replace(lambda e, cls=cls: isinstance(e, cls), lambda e, fn=fn: fn(*e.args))
    return expr


def _normalize(value):
    """int stays int; SymInt / sympy becomes an int when constant, else sympy."""
    if isinstance(value, torch.SymInt):
        hint = value.node.maybe_as_int()
        if hint is not None:
            return int(hint)
        value = value.node.expr
    if isinstance(value, (bool, int)):
        return int(value)
    if isinstance(value, sympy.Basic):
        value = _from_torch_sympy(sympy.sympify(value))
        if value.is_Integer:
            return int(value)
        return value
    raise TypeError(f"not an integer value: {value!r}")


def _simplify(value):
    if isinstance(value, int):
        return value
    value = sympy.expand(value)
    return int(value) if value.is_Integer else value


def _lower_bound(sym: sympy.Symbol, assumptions: Mapping) -> Optional[int]:
    """Integer lower bound of a symbol, None when its sign is unknown.

    Positive symbols and ShapeEnv size symbols (``s<N>``) are >= 1,
    nonnegative ones >= 0; ``assumptions`` can only raise these bounds.
    """
    if sym.is_positive or _SIZE_SYMBOL.match(sym.name):
        bound = 1
    elif sym.is_nonnegative:
        bound = 0
    else:
        bound = None
    if sym.name in assumptions:
        given = assumptions[sym.name]
        bound = given if bound is None else max(bound, given)
    return bound


def _replace_floors(expr: sympy.Expr):
    """Replace ``floor(a/b)`` (``b`` a positive integer) by ``(a - m)/b``.

    Returns the new expression and ``{m: b - 1}``: each fresh ``m`` is the
    remainder, an integer in ``[0, b - 1]``. ``ceiling(a/b)`` becomes
    ``(a + m)/b`` likewise. This turns ``s - floor(s/2) >= 0`` into a
    polynomial question the coefficient test can answer.
    """
    bounds = {}

    def fresh(arg, sign):
        num, den = sympy.fraction(sympy.together(arg))
        if not (den.is_Integer and den > 0 and num.is_integer):
            return None
        m = sympy.Dummy("m", integer=True, nonnegative=True)
        bounds[m] = int(den) - 1
        return (num + sign * m) / den

    for cls, sign in ((sympy.floor, -1), (sympy.ceiling, 1)):
        for e in sorted(expr.atoms(cls), key=sympy.default_sort_key):
            new = fresh(e.args[0], sign)
            if new is not None:
                expr = expr.xreplace({e: new})
    return expr, bounds


def _nonneg_coefficients(expr: sympy.Expr, variables: Sequence[sympy.Symbol]) -> bool:
    """True when ``expr`` is a polynomial in ``variables`` (all >= 0) with
    nonnegative coefficients, hence provably >= 0."""
    if not variables:
        return bool(expr.is_number and expr >= 0)
    try:
        poly = sympy.Poly(expr, *variables)
    except sympy.PolynomialError:
        return False
    return all(c.is_number and c >= 0 for c in poly.coeffs())


def _proved_nonneg(value, assumptions: Optional[Mapping] = None) -> bool:
    """True only when ``value >= 0`` is proven for all admissible symbols.

    Integer symbols get lower bounds (``s<N>`` and positive symbols: 1;
    raised by ``assumptions``); each is shifted to ``lb + t`` with
    ``t >= 0`` and floors are replaced by bounded remainders, after which a
    polynomial with nonnegative coefficients in nonnegative variables is >= 0.
    Each remainder ``m`` in ``[0, c]`` is tried both as ``m`` and ``c - m``.
    """
    if isinstance(value, int):
        return value >= 0
    frozen = tuple(sorted((str(k), int(v)) for k, v in (assumptions or {}).items()))
    return _proved_nonneg_cached(sympy.sympify(value), frozen)


@functools.lru_cache(maxsize=4096)
def _proved_nonneg_cached(value: sympy.Expr, assumptions: tuple) -> bool:
    assumptions = dict(assumptions)
    expr = sympy.expand(_from_torch_sympy(value))
    if expr.is_number:
        return bool(expr >= 0)
    if expr.is_nonnegative:
        return True
    if expr.has(sympy.Min, sympy.Max):  # beyond the polynomial argument below
        return False
    shifts, variables = {}, []
    for sym in expr.free_symbols:
        lb = _lower_bound(sym, assumptions)
        if lb is None or not sym.is_integer and not _SIZE_SYMBOL.match(sym.name):
            return False
        t = sympy.Dummy(sym.name, integer=True, nonnegative=True)
        shifts[sym] = lb + t
        variables.append(t)
    expr, remainders = _replace_floors(sympy.expand(expr.xreplace(shifts)))
    variables += list(remainders)
    choices = (False, True) if len(remainders) <= _MAX_FLIPPED_REMAINDERS else (False,)
    for flips in itertools.product(choices, repeat=len(remainders)):
        flip = {m: c - m for (m, c), f in zip(remainders.items(), flips) if f}
        candidate = sympy.expand(expr.xreplace(flip))
        if _nonneg_coefficients(candidate, variables):
            return True
    return False


def _proved_le(a, b, assumptions=None) -> bool:
    return _proved_nonneg(_sub(b, a), assumptions)


def _proved_lt(a, b, assumptions=None) -> bool:
    """``a < b`` for integers is ``b - a - 1 >= 0``."""
    return _proved_nonneg(_sub(_sub(b, a), 1), assumptions)


def _sub(a, b):
    return _simplify(a - b)


def _min(a, b):
    if _proved_le(a, b):
        return a
    if _proved_le(b, a):
        return b
    return sympy.Min(a, b)


def _max(a, b):
    if _proved_le(a, b):
        return b
    if _proved_le(b, a):
        return a
    return sympy.Max(a, b)


def _floordiv(a, b):
    if isinstance(a, int) and isinstance(b, int):
        return a // b
    return _normalize(sympy.floor(sympy.sympify(a) / b))


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


# --------------------------------------------------------------------------
# Overlap
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _Lattice:
    """Addresses ``offset + sum i_k * strides[k]`` in some common unit."""

    offset: object
    sizes: tuple
    strides: tuple

    def is_concrete(self) -> bool:
        return all(isinstance(v, int) for v in (self.offset, *self.sizes, *self.strides))

    def numel(self):
        return _simplify(math.prod(self.sizes)) if self.sizes else 1


def _in_units(r: Region, unit: int) -> _Lattice:
    """Express a region in units of ``unit`` bytes; an element spanning
    several units becomes an extra innermost dimension of stride 1."""
    scale = r.itemsize // unit
    sizes = [s for s in r.sizes]
    strides = [_simplify(s * scale) for s in r.strides]
    if scale > 1:
        sizes.append(scale)
        strides.append(1)
    return _Lattice(_simplify(r.offset * scale), tuple(sizes), tuple(strides))


def _drop_trivial_dims(lat: _Lattice) -> _Lattice:
    keep = [k for k in range(len(lat.sizes)) if lat.sizes[k] != 1]
    return _Lattice(lat.offset, tuple(lat.sizes[k] for k in keep), tuple(lat.strides[k] for k in keep))


def _provably_empty(sizes) -> bool:
    return any(_simplify(s) == 0 for s in sizes)


def _span(lat: _Lattice):
    """Inclusive ``(first, last)`` address (assumes non-empty: sizes >= 1)."""
    lo, hi = lat.offset, lat.offset
    for size, stride in zip(lat.sizes, lat.strides):
        reach = _simplify((size - 1) * stride)
        lo, hi = lo + _min(0, reach), hi + _max(0, reach)
    return _simplify(lo), _simplify(hi)


def _intervals_disjoint(a: _Lattice, b: _Lattice, assumptions) -> bool:
    a_lo, a_hi = _span(a)
    b_lo, b_hi = _span(b)
    return _proved_lt(a_hi, b_lo, assumptions) or _proved_lt(b_hi, a_lo, assumptions)


def may_overlap(a: Region, b: Region, assumptions: Optional[Mapping] = None) -> bool:
    """Whether regions ``a`` and ``b`` may share a byte; False only if proven not.

    ``assumptions`` maps symbols (or their names) to integer lower bounds
    known to hold, on top of the default that ShapeEnv size symbols ``s<N>``
    (and symbols declared positive) are >= 1.
    """
    if a.storage != b.storage:
        return False
    if _provably_empty(a.sizes) or _provably_empty(b.sizes):
        return False
    unit = math.gcd(a.itemsize, b.itemsize)
    la, lb = _drop_trivial_dims(_in_units(a, unit)), _drop_trivial_dims(_in_units(b, unit))
    if _intervals_disjoint(la, lb, assumptions):
        return False
    if la.is_concrete() and lb.is_concrete():
        return _concrete_overlap(la, lb)
    return not _structured_disjoint(la, lb, assumptions)


# ---- concrete shapes: exact ------------------------------------------------


def _lattice_has_solution(terms, target: int, budget: Optional[int] = None) -> Optional[bool]:
    """Is ``sum c * e == target`` solvable with integers ``lo <= e <= hi``?

    ``terms`` is a list of ``(c, lo, hi)``. Terms with equal ``|c|`` are
    merged (their sum ranges over a contiguous interval), then a depth-first
    search from the largest coefficient down narrows each variable to the
    values that keep the rest reachable (interval bound) and divisible (gcd
    of the remaining coefficients). For ordinary layouts, whose strides nest,
    this visits a handful of nodes. Returns None when ``budget`` runs out.
    """
    budget = _SEARCH_BUDGET if budget is None else budget
    merged: dict[int, list[int]] = {}
    for c, lo, hi in terms:
        if c == 0 or lo == hi:
            target -= c * lo
            continue
        if c < 0:
            c, lo, hi = -c, -hi, -lo
        acc = merged.setdefault(c, [0, 0])
        acc[0] += lo
        acc[1] += hi
    items = sorted(((c, lo, hi) for c, (lo, hi) in merged.items()), reverse=True)
    n = len(items)
    rest_lo, rest_hi, rest_gcd = [0] * (n + 1), [0] * (n + 1), [0] * (n + 1)
    for i in range(n - 1, -1, -1):
        c, lo, hi = items[i]
        rest_lo[i] = rest_lo[i + 1] + c * lo
        rest_hi[i] = rest_hi[i + 1] + c * hi
        rest_gcd[i] = math.gcd(rest_gcd[i + 1], c)
    visits = 0

    def search(i: int, t: int) -> Optional[bool]:
        nonlocal visits
        visits += 1
        if visits > budget:
            return None
        if i == n:
            return t == 0
        if not rest_lo[i] <= t <= rest_hi[i] or t % rest_gcd[i]:
            return False
        c, lo, hi = items[i]
        first = max(lo, -((rest_hi[i + 1] - t) // c))  # ceil((t - rest_hi) / c)
        last = min(hi, (t - rest_lo[i + 1]) // c)
        g = rest_gcd[i + 1]
        period = 1
        if g:  # c * e == t (mod g): e runs over one residue class mod g / gcd(c, g)
            d = math.gcd(c, g)  # divides t, checked above
            period = g // d
            residue = (t // d) * pow(c // d, -1, period) % period
            first += (residue - first) % period
        unknown = False
        for e in range(first, last + 1, period):
            found = search(i + 1, t - c * e)
            if found:
                return True
            unknown |= found is None
            if found is None and visits > budget:
                return None
        return None if unknown else False

    return search(0, target)


def _addresses(lat: _Lattice) -> torch.Tensor:
    """All addresses of a concrete region as a flat int64 tensor."""
    addr = torch.tensor([lat.offset], dtype=torch.int64)
    for size, stride in zip(lat.sizes, lat.strides):
        step = torch.arange(size, dtype=torch.int64) * stride
        addr = (addr[:, None] + step[None, :]).reshape(-1)
    return addr


def _enumerated_overlap(a: _Lattice, b: _Lattice) -> bool:
    small, large = sorted((_addresses(a), _addresses(b)), key=torch.Tensor.numel)
    return bool(torch.isin(small, large).any())


def _concrete_overlap(a: _Lattice, b: _Lattice) -> bool:
    """Exact answer for concrete regions (True only if the budget runs out
    on regions too large to enumerate)."""
    terms = [(s, 0, n - 1) for n, s in zip(a.sizes, a.strides)]
    terms += [(-s, 0, n - 1) for n, s in zip(b.sizes, b.strides)]
    found = _lattice_has_solution(terms, b.offset - a.offset)
    if found is not None:
        return found
    if a.numel() + b.numel() <= ENUMERATION_LIMIT:
        return _enumerated_overlap(a, b)
    return True


# ---- symbolic shapes: structured cases ----------------------------------------


def _sorted_by_stride(lat: _Lattice, assumptions) -> Optional[list]:
    """``(size, stride)`` pairs ordered by provably increasing positive
    stride; None when a stride is not provably positive or the order is
    undecidable."""
    dims = list(zip(lat.sizes, lat.strides))
    if not all(_proved_lt(0, s, assumptions) for _, s in dims):
        return None

    def cmp(x, y):
        if _proved_le(x[1], y[1], assumptions):
            return -1
        if _proved_le(y[1], x[1], assumptions):
            return 1
        raise ValueError

    try:
        ordered = sorted(dims, key=functools.cmp_to_key(cmp))
    except ValueError:
        return None
    return ordered


def _proved_injective(lat: _Lattice, assumptions) -> bool:
    """Each stride exceeds the span of all smaller-stride dims, so distinct
    indices have distinct addresses (sizes are assumed >= 1)."""
    ordered = _sorted_by_stride(lat, assumptions)
    if ordered is None:
        return False
    span = 0
    for size, stride in ordered:
        if not _proved_lt(span, stride, assumptions):
            return False
        span = _simplify(span + (size - 1) * stride)
    return True


def _structured_disjoint(a: _Lattice, b: _Lattice, assumptions) -> bool:
    """Prove disjointness of two boxes of one layout, shifted along one dim.

    Applies when ``a`` and ``b`` have the same strides and the same sizes
    except possibly in dim ``k``, and ``b.offset - a.offset == delta *
    strides[k]`` for an integer ``delta`` (e.g. ``x[:h]`` and ``x[h:]``).
    If ``delta >= a.sizes[k]`` then ``b`` follows ``a`` along ``k``, both lie
    in the box spanning ``delta + b.sizes[k]`` along ``k``, and if that box
    is injective their disjoint index sets give disjoint addresses. The case
    ``-delta >= b.sizes[k]`` is the mirror image.
    """
    if len(a.sizes) != len(b.sizes) or any(
        _sub(x, y) != 0 for x, y in zip(a.strides, b.strides)
    ):
        return False
    differ = [k for k, (x, y) in enumerate(zip(a.sizes, b.sizes)) if _sub(x, y) != 0]
    if len(differ) > 1:
        return False
    diff = _sub(b.offset, a.offset)
    for k in differ or range(len(a.sizes)):
        stride = a.strides[k]
        if _simplify(stride) == 0:
            continue
        delta = _simplify(sympy.cancel(sympy.sympify(diff) / stride))
        if not (isinstance(delta, int) or delta.is_integer):
            continue
        for first, second, shift in ((a, b, delta), (b, a, _simplify(-delta))):
            if not _proved_le(first.sizes[k], shift, assumptions):
                continue
            sizes = list(first.sizes)
            sizes[k] = _simplify(shift + second.sizes[k])
            if _proved_injective(_Lattice(first.offset, tuple(sizes), first.strides), assumptions):
                return True
    return False


# --------------------------------------------------------------------------
# Internal overlap
# --------------------------------------------------------------------------


def has_internal_overlap(r: Region) -> bool:
    """Whether two distinct indices of ``r`` may share an address (e.g.
    ``expand``); False only when proven otherwise."""
    lat = _drop_trivial_dims(_Lattice(r.offset, r.sizes, r.strides))
    if _provably_empty(lat.sizes):
        return False
    if not lat.is_concrete():
        positive = _Lattice(lat.offset, lat.sizes, tuple(_abs_if_known(s) for s in lat.strides))
        return not _proved_injective(positive, None)
    if any(s == 0 for s in lat.strides):
        return True
    dims = sorted(zip(lat.sizes, map(abs, lat.strides)), key=operator.itemgetter(1))
    span = 0
    for size, stride in dims:
        if stride <= span:
            break
        span += (size - 1) * stride
    else:
        return False
    # A nonzero solution of sum e_k * stride_k == 0, |e_k| < size_k, exists
    # iff one exists whose first nonzero e_k (in ``dims`` order) is positive.
    unknown = False
    for k in range(len(dims)):
        terms = [(stride, 0, 0) for _, stride in dims[:k]]
        terms.append((dims[k][1], 1, dims[k][0] - 1))
        terms += [(stride, 1 - size, size - 1) for size, stride in dims[k + 1 :]]
        found = _lattice_has_solution(terms, 0)
        if found:
            return True
        unknown |= found is None
    if not unknown:
        return False
    if lat.numel() <= ENUMERATION_LIMIT:
        addr = _addresses(lat)
        return addr.unique().numel() < addr.numel()
    return True


def _abs_if_known(stride):
    if _proved_lt(stride, 0):
        return _simplify(-stride)
    return stride
