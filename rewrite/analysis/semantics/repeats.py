"""Values that repeat another tensor's slices: ``v == x.repeat_interleave(n, dim)``.

Programs spell the repeat as views and one copy, so that the repeated tensor is an ordinary
contiguous tensor: transformers' ``repeat_kv`` (grouped-query attention) is
``x[:, :, None].expand(b, kv, n, s, d).reshape(b, kv * n, s, d)``, which ATen graphs show as
``reshape(clone(expand(unsqueeze(x, 2), ...)), ...)``.  Index ``i * n + r`` along ``dim`` of the
result is index ``i`` of ``x``: each slice of ``x`` repeated ``n`` times in a row.  The analysis
recognizes that form structurally and compares the sizes symbolically (never installing a guard),
so a rule can hand ``x`` itself to an op that repeats slices on its own.
"""
from __future__ import annotations

from typing import Optional, Tuple

import torch
import torch.fx as fx

from rewrite.analysis.semantics import layout_maps
from rewrite.analysis.facts.op_facts import is_materialized_copy
from rewrite.analysis.facts.fake import fake_value

aten = torch.ops.aten

#: Reshapes: the result holds the operand's elements in the same row-major order.
_RESHAPES = {aten.reshape.default, aten.view.default, aten._unsafe_view.default}
#: Copies that keep the values (and the logical order) of their operand.
_COPIES = {aten.clone.default}


def _is(node, targets) -> bool:
    return isinstance(node, fx.Node) and node.op == "call_function" and node.target in targets


def _shape(node):
    val = fake_value(node) if isinstance(node, fx.Node) else None
    return None if val is None else tuple(val.shape)


def _equal(a, b) -> bool:
    """Two sizes are equal wherever the graph runs (``layout_maps.same_shape``, no guard)."""
    return layout_maps.same_shape((a,), (b,))


def _unsqueezed_source(u: fx.Node, at: int) -> Optional[fx.Node]:
    """``x`` when ``u`` is ``x`` with a new dimension of size 1 inserted at ``at``."""
    if _is(u, {aten.unsqueeze.default}):
        x, d = u.args[0], u.args[1]
        xs = _shape(x)
        if xs is None or not isinstance(d, int):
            return None
        return x if (d % (len(xs) + 1)) == at else None
    if _is(u, _RESHAPES):
        x, us, xs = u.args[0], _shape(u), _shape(u.args[0])
        if us is None or xs is None or len(us) != len(xs) + 1 or not _equal(us[at], 1):
            return None
        return x if layout_maps.same_shape(us[:at] + us[at + 1:], xs) else None
    return None


def interleaved_source(v: fx.Node, dim: int) -> Optional[fx.Node]:
    """``x`` such that ``v`` holds ``x.repeat_interleave(n, dim)`` for ``n = v.shape[dim] /
    x.shape[dim]``, spelled ``reshape(copy(expand(unsqueeze(x, dim + 1), sizes)), merged)``
    where ``expand`` changes only the new dimension (to ``n``) and ``reshape`` merges it into
    ``dim``; None for anything else (a ``repeat``, which tiles instead, included)."""
    chain = interleaved_chain(v, dim)
    return chain[0] if chain is not None else None


def interleaved_chain(v: fx.Node, dim: int) -> Optional[Tuple[fx.Node, Tuple[fx.Node, ...]]]:
    """``(x, nodes)``: the source of :func:`interleaved_source` and the nodes from ``v`` back to
    it (``v`` first, ``x`` excluded)."""
    if not _is(v, _RESHAPES) or not isinstance(dim, int):
        return None
    vs = _shape(v)
    if not vs:
        return None
    dim = dim % len(vs)
    nodes = [v]
    e = v.args[0]
    while _is(e, _COPIES) or is_materialized_copy(e):
        nodes.append(e)
        e = e.args[0]
    if not _is(e, {aten.expand.default}):
        return None
    u = e.args[0]
    x = _unsqueezed_source(u, dim + 1)
    xs, es = _shape(x), _shape(e)
    if x is None or xs is None or es is None or len(xs) != len(vs) or len(es) != len(xs) + 1:
        return None
    n = es[dim + 1]
    expanded_only_new = layout_maps.same_shape(es[:dim + 1] + es[dim + 2:], xs)
    merged = layout_maps.same_shape(vs[:dim] + vs[dim + 1:], xs[:dim] + xs[dim + 1:]) and _equal(vs[dim], xs[dim] * n)
    return (x, tuple(nodes + [e, u])) if expanded_only_new and merged else None
