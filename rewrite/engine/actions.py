"""Graph actions over ATen graphs: reinplacing, rewiring, erasing.

In-place forms are found from the op schemas, never from a hand-written table:
* ``X_scatter(base, src, *args)`` has the view op ``X`` whose schema is ``X(self, *args)``;
  the in-place form is ``X(base, *args).copy_(src)``.
* ``op.overload(self, ...)`` has ``op_.overload(self(a!), ...)`` with the same argument list;
  ``_unsafe_op`` falls back to ``op_`` (``_unsafe_index_put`` -> ``index_put_``).
"""
from __future__ import annotations

import functools
from typing import Optional, Tuple

import torch
import torch.fx as fx

from rewrite.analysis import mutation
from rewrite.analysis.graph_facts import is_view_scatter


class ActionError(RuntimeError):
    pass


def _same_arg_types(a, b) -> bool:
    return [str(x.type) for x in a] == [str(x.type) for x in b]


@functools.lru_cache(maxsize=None)
def view_op_for_scatter(scatter: torch._ops.OpOverload) -> Optional[torch._ops.OpOverload]:
    """The view op a scatter writes through: ``slice_scatter.default`` -> ``slice.Tensor``."""
    name = scatter.__name__.split(".")[0]
    if not name.endswith("_scatter"):
        return None
    packet = getattr(getattr(torch.ops, scatter.namespace), name[: -len("_scatter")], None)
    if packet is None:
        return None
    want = scatter._schema.arguments[2:]
    for overload in packet.overloads():
        candidate = getattr(packet, overload)
        args = candidate._schema.arguments
        if args and _same_arg_types(args[1:], want) and candidate._schema.returns[0].alias_info is not None:
            return candidate
    return None


@functools.lru_cache(maxsize=None)
def inplace_variant(op: torch._ops.OpOverload) -> Optional[torch._ops.OpOverload]:
    """``add.Tensor`` -> ``add_.Tensor``: same overload name and argument types, first argument
    written (``Tensor(a!)``)."""
    ns = getattr(torch.ops, op.namespace)
    base = op.__name__.split(".")[0]
    names = [base + "_"]
    if base.startswith("_unsafe_"):
        names.append(base[len("_unsafe_"):] + "_")
    for name in names:
        packet = getattr(ns, name, None)
        if packet is None:
            continue
        for overload in packet.overloads():
            cand = getattr(packet, overload)
            args = cand._schema.arguments
            if (args and args[0].alias_info is not None and args[0].alias_info.is_write
                    and _same_arg_types(args, op._schema.arguments)):
                return cand
    return None


def reinplace(ctx, node: fx.Node) -> None:
    if not isinstance(node, fx.Node) or node.op != "call_function" or not isinstance(node.target, torch._ops.OpOverload):
        raise ActionError(f"reinplace needs an ATen op node, got {node}")
    txn = ctx.txn
    if is_view_scatter(node):
        view_op = view_op_for_scatter(node.target)
        if view_op is None:
            raise ActionError(f"no view op for {node.target}")
        base, src, *rest = _positional(node)
        view = txn.insert("call_function", view_op, (base, *rest), before=node, like=node)
        copy = txn.insert("call_function", torch.ops.aten.copy_.default, (view, src), before=node, like=node)
        ctx.note_created(view, copy)
        result = base
    else:
        op = inplace_variant(node.target)
        if op is None:
            raise ActionError(f"{node.target} has no in-place variant")
        result = node.args[0]
        if not (mutation.is_copy_target(op) and node.args[1] is result):  # copy_(x, x) does nothing
            new = txn.insert("call_function", op, node.args, node.kwargs, before=node, like=node)
            ctx.note_created(new)
    ctx.bytes_removed += ctx.facts.nbytes(node)
    txn.replace_uses(node, result)
    txn.erase(node)
    ctx.note_removed(node)


def _positional(node: fx.Node) -> Tuple:
    """All schema arguments in order, defaults filled in (the view op takes them positionally)."""
    values = []
    for name, value in mutation.bound_arguments(node):
        if value is mutation.MISSING:
            raise ActionError(f"{node.name}: missing argument {name}")
        values.append(value)
    return tuple(values)


def erase(ctx, node) -> None:
    if not isinstance(node, fx.Node):
        raise ActionError(f"erase needs a node, got {node!r}")
    txn = ctx.txn
    if mutation.is_copy(node):
        dst, src = node.args[0], node.args[1]
        if src is not dst:
            raise ActionError(f"erasing {node.name} would drop the write of {src.name} into {dst.name}")
        txn.replace_uses(node, dst)
        ctx.bytes_removed += ctx.facts.nbytes(dst)
    elif any(u not in txn.to_erase for u in node.users):
        raise ActionError(f"cannot erase {node.name}: it has users")
    txn.erase(node)
    ctx.note_removed(node)


def replace_uses(ctx, old, new) -> None:
    if not isinstance(old, fx.Node):
        raise ActionError(f"replace_uses needs a node, got {old!r}")
    ctx.txn.replace_uses(old, new)
