"""Proofs about symbolic sizes: sympy expressions from torch's shape environment, normalized and
compared soundly but incompletely (``_proved_le`` is True only when the inequality holds for every
size the guards allow), and the arithmetic of possibly symbolic values (min, max, floor division)
that regions and views are computed with.
"""
from __future__ import annotations

import functools
import itertools
import re
from typing import Mapping, Optional, Sequence

import sympy
import torch



#: The prover tries 2**k parametrizations of k floor remainders, up to this k.
_MAX_FLIPPED_REMAINDERS = 6
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
