"""Whether two memory regions may overlap, and whether one overlaps itself.

Reinplacing ``slice_scatter(base, src, ...)`` into ``base[...].copy_(src)`` is only sound when
``src`` does not share memory with the destination region.  Exact when shapes are concrete
(a bounded lattice search, then enumeration of addresses), sound but incomplete with sympy when
they are symbolic.  Every answer is conservative: ``may_overlap`` returns False only when
disjointness is proven, ``has_internal_overlap`` returns False only when the absence of aliasing
is proven.
"""
from __future__ import annotations

import functools
import math
import operator
from dataclasses import dataclass
from typing import Mapping, Optional

import sympy
import torch

from rewrite.analysis.semantics.symbolic import _max, _min, _proved_le, _proved_lt, _simplify, _sub
from rewrite.analysis.semantics.regions import Region


#: Regions whose address sets together hold at most this many elements are
#: compared by enumerating their addresses when the lattice search gives up.
ENUMERATION_LIMIT = 1 << 22
#: Node budget for the bounded lattice search (see ``_lattice_has_solution``).
_SEARCH_BUDGET = 20_000
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


def _span(lat: _Lattice, assumptions=None):
    """Inclusive ``(first, last)`` address (assumes non-empty: sizes >= 1, so that ``size - 1``
    is never negative and a dimension reaches the way its stride points; an empty region shares
    no byte with anything, so a disjointness proof may assume it.  ``x[1:]`` of ``s4`` rows
    then starts after ``x[:1]`` ends, whatever ``s4``: fuzz program 962)."""
    lo, hi = lat.offset, lat.offset
    for size, stride in zip(lat.sizes, lat.strides):
        reach = _simplify((size - 1) * stride)
        if _proved_le(0, stride, assumptions):
            hi = hi + reach
        elif _proved_le(stride, 0, assumptions):
            lo = lo + reach
        else:
            lo, hi = lo + _min(0, reach), hi + _max(0, reach)
    return _simplify(lo), _simplify(hi)


def _intervals_disjoint(a: _Lattice, b: _Lattice, assumptions) -> bool:
    a_lo, a_hi = _span(a, assumptions)
    b_lo, b_hi = _span(b, assumptions)
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
