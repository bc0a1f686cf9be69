"""Value terms: what the semantic model says a node computes or a memory holds.

A term is an interned (hash-consed) key tuple, so two terms are equal exactly when their integer
ids are.  Reads and writes go through *maps* (``layout_maps``): a read of a view is
``strided(content of its root, map)``, a write through a view is ``scatter(content, value,
map)``, and a functional scatter op (``slice_scatter(x, src, ...)``) is the same ``scatter``
term, so a rewrite that turns one into the other leaves every observed term unchanged.
:class:`Algebra` builds terms and normalizes as it builds (read-over-write, nested scatters,
views undone by their inverse, no-op copies), so the terms of equivalent programs coincide;
anything it does not cover stays a distinct term: the comparison can refuse a correct rewrite but
never accept a wrong one.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence

import torch
import torch.fx as fx

from rewrite.analysis.semantics import layout_maps as lm
from rewrite.analysis.semantics import overlap
from rewrite.analysis.semantics import regions


# --------------------------------------------------------------------------- terms


class Terms:
    """Interned terms.  A term is an int; ``defs[t]`` is its key tuple, ``shapes[t]`` the shape
    of the tensor it denotes (None when unknown or not a tensor)."""

    def __init__(self):
        self._ids: Dict[tuple, int] = {}
        self.defs: List[tuple] = []
        self.shapes: List[Optional[tuple]] = []
        self.likes: List[Optional[torch.Tensor]] = []   # a fake tensor of the term's shape/dtype
        self.inner_maps: Dict[int, lm.Map] = {}          # scatter term -> its map composed into the
        #                                                  coordinates of the tensor its base views

    def make(self, key: tuple, like: Optional[torch.Tensor] = None) -> int:
        t = self._ids.get(key)
        if t is None:
            t = len(self.defs)
            self._ids[key] = t
            self.defs.append(key)
            self.likes.append(like)
            self.shapes.append(lm.shape_key(like.shape) if isinstance(like, torch.Tensor) else None)
        elif self.likes[t] is None and isinstance(like, torch.Tensor):
            self.likes[t] = like
            self.shapes[t] = lm.shape_key(like.shape)
        return t

    def kind(self, t: int) -> str:
        return self.defs[t][0]


def _const_key(value):
    """A hashable stand-in for a non-tensor argument."""
    if isinstance(value, (list, tuple)):
        return ("list", tuple(_const_key(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _const_key(v)) for k, v in value.items())))
    if isinstance(value, float) and value != value:
        return ("nan",)
    if isinstance(value, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        return ("sym", str(value.node.expr))
    try:
        hash(value)
        return value
    except TypeError:
        return ("repr", repr(value))


# --------------------------------------------------------------------------- normalization


def _arg_key(a):
    if isinstance(a, fx.Node):
        return ("node", a.name)
    if isinstance(a, (list, tuple)):
        return tuple(_arg_key(x) for x in a)
    return _const_key(a)


def _fallback_key(fallback: object) -> object:
    """The key of a view or scatter whose map is unknown, made by node ``fallback``: the node's
    name, op and arguments (tensor arguments by name; their values are in the term already),
    not the node object, so that a graph and its copy (the simulation of Inductor's
    reinplacing) give the same term for the same node (fuzz program 202)."""
    if not isinstance(fallback, fx.Node):
        return fallback
    return ("node", fallback.name, str(fallback.target), _arg_key(fallback.args),
            tuple(sorted((k, _arg_key(v)) for k, v in fallback.kwargs.items())))


class Algebra:
    """Term constructors that normalize as they build."""

    def __init__(self, terms: Terms):
        self.terms = terms

    def strided(self, base: int, m: Optional[lm.Map], steps: Sequence[fx.Node] = (),
                like: Optional[torch.Tensor] = None, fallback: object = None) -> int:
        """The view ``m`` of the value ``base``; ``steps`` (the view ops that produced ``m`` from
        ``base``'s coordinates) let a view be recognized as undoing an earlier one."""
        T = self.terms
        if m is None:
            return T.make(("view?", base, _fallback_key(fallback)), like)
        shape = T.shapes[base]
        if shape is not None and lm.is_identity(m, shape):
            return base
        d = T.defs[base]
        if d[0] == "scatter":
            _, inner_base, src, m1 = d
            if m == m1 and not _self_overlapping(m1):
                return src
            if not _may_overlap(m, m1):
                return self.strided(inner_base, m, steps, like, fallback)
            # a bijective view of a patched view, undone by this view: patch the original
            undone = self._undo(inner_base, m, steps)
            if undone is not None and base in T.inner_maps:
                return self.scatter(undone, src, T.inner_maps[base])
        return T.make(("strided", base, m), like)

    def _undo(self, inner_base: int, m: lm.Map, steps: Sequence[fx.Node]) -> Optional[int]:
        """If ``inner_base`` is ``strided(V, ma)`` and applying ``steps`` after ``ma`` gives back
        all of ``V`` in order, return ``V``."""
        T = self.terms
        d = T.defs[inner_base]
        if d[0] != "strided" or not steps:
            return None
        _, v, ma = d
        like = T.likes[v]
        if like is None:
            return None
        composed = lm.compose_steps(like, ma, steps)
        return v if composed is not None and lm.is_identity(composed, like.shape) else None

    def scatter(self, base: int, src: int, m: Optional[lm.Map], like: Optional[torch.Tensor] = None,
                fallback: object = None) -> int:
        """``base`` with the elements at ``m`` replaced by ``src``."""
        T = self.terms
        if m is None:
            return T.make(("scatter?", base, src, _fallback_key(fallback)), like)
        shape = T.shapes[base]
        if shape is not None and lm.is_identity(m, shape) and T.shapes[src] == shape:
            return src                                    # whole overwrite
        sd = T.defs[src]
        if sd[0] == "strided" and sd[1] == base and sd[2] == m and not _self_overlapping(m):
            return base                                   # writes what is already there
        if T.defs[base][0] == "scatter" and not _self_overlapping(m) \
                and self.strided(base, m, (), T.likes[src]) == src:
            return base                                   # the same, seen through earlier writes
        if sd[0] == "scatter":
            inner = T.defs[sd[1]]
            # scatter(V, scatter(strided(V, m), t, m2), m) = scatter(V, t, m . m2)
            if inner[0] == "strided" and inner[1] == base and inner[2] == m and sd[1] != src \
                    and src in T.inner_maps:
                return self.scatter(base, sd[2], T.inner_maps[src], like)
        bd = T.defs[base]
        if bd[0] == "scatter" and bd[3] == m:
            base = bd[1]                                   # overwrites the same elements
        return T.make(("scatter", base, src, m), like if like is not None else T.likes[base])

    def scatter_with_inner(self, base: int, src: int, m: Optional[lm.Map], inner: Optional[lm.Map],
                           like: Optional[torch.Tensor]) -> int:
        """A functional scatter whose base is a view: remember its map in the viewed tensor's
        coordinates, for the nested-scatter normalization."""
        t = self.scatter(base, src, m, like)
        if inner is not None and self.terms.defs[t][0] == "scatter":
            self.terms.inner_maps.setdefault(t, inner)
        return t


def _region(m: lm.Map) -> regions.Region:
    return regions.Region("logical", m[2], tuple(m[0]), tuple(m[1]), 1)


def _may_overlap(a: lm.Map, b: lm.Map) -> bool:
    try:
        return overlap.may_overlap(_region(a), _region(b))
    except Exception:  # noqa: BLE001 - unknown: assume they overlap
        return True


def _self_overlapping(m: lm.Map) -> bool:
    try:
        return overlap.has_internal_overlap(_region(m))
    except Exception:  # noqa: BLE001
        return True
