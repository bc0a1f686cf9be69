"""Functionalized calls of mutating ops: ``auto_functionalized`` (v1), read from the wrapped op's
schema and nothing else.

Functionalization wraps a call of an op that writes some of its arguments (a custom op made with
``torch.library.custom_op(..., mutates_args=...)``, ``Tensor(a!)`` in its schema) as
``auto_functionalized(op, **arguments)``: a functional call whose result is the op's own result
(one slot, ``None`` for an op that returns nothing; a tuple of slots for several), followed by
the new value of each argument the op writes, in schema order (a list for ``Tensor(a!)[]``,
``None`` for an optional argument given ``None``).  Writing the call back means calling the op
itself on the same arguments: each written argument then holds its new value.

``auto_functionalized_v2(op, _all_bases=[...], ...)`` passes each written argument as a view of
one of ``_all_bases``, described by view metadata (the base itself, an alias, a slice, or
``as_strided`` storage addresses: torch's own ``read_view_information_from_args`` reads it), and
returns, after the op's result, the new value of every base; the arguments it only reads are
passed by name.
"""
from __future__ import annotations

from typing import Dict, List, Optional, Tuple

import torch
import torch.fx as fx

from rewrite.analysis.facts.mutation import nodes_in

AUTO_FUNCTIONALIZED = torch.ops.higher_order.auto_functionalized
AUTO_FUNCTIONALIZED_V2 = torch.ops.higher_order.auto_functionalized_v2


def is_functionalized_call(node) -> bool:
    """``auto_functionalized(op, ...)`` (v1)."""
    return (isinstance(node, fx.Node) and node.op == "call_function" and node.target is AUTO_FUNCTIONALIZED
            and bool(node.args) and isinstance(node.args[0], torch._ops.OpOverload))


def is_any_functionalized_call(node) -> bool:
    """``auto_functionalized`` (v1) or ``auto_functionalized_v2``."""
    return is_functionalized_call(node) or (
        isinstance(node, fx.Node) and node.op == "call_function" and node.target is AUTO_FUNCTIONALIZED_V2
        and bool(node.args) and isinstance(node.args[0], torch._ops.OpOverload))


def is_functionalized_hop_v2(node) -> bool:
    """``auto_functionalized_v2`` of a higher-order op (a ``cond`` whose branches write captured
    tensors): its schema travels as ``_op_schema``, its written operands as bases."""
    return (isinstance(node, fx.Node) and node.op == "call_function" and node.target is AUTO_FUNCTIONALIZED_V2
            and bool(node.args) and isinstance(node.args[0], torch._ops.HigherOrderOperator))


def is_functionalized_v2(node) -> bool:
    return is_any_functionalized_call(node) and node.target is AUTO_FUNCTIONALIZED_V2


def v2_views(node: fx.Node) -> Dict[str, object]:
    """Written argument name -> its ``ViewInfo`` (a list of them for ``Tensor(a!)[]``; None for
    an optional argument given None) of a v2 call (of an op or of a higher-order op)."""
    from torch._higher_order_ops.auto_functionalize import get_mutable_args_from_schema, read_view_information_from_args

    names, types = get_mutable_args_from_schema(wrapped_schema(node))
    kwargs = dict(node.kwargs)
    bases = kwargs.pop("_all_bases")
    return read_view_information_from_args(names, types, kwargs, bases)


def v2_view_infos(node: fx.Node) -> list:
    """Every ``ViewInfo`` of a v2 call's written arguments, lists flattened (raises where the
    call's view metadata cannot be read)."""
    return [i for info in v2_views(node).values()
            for i in (info if isinstance(info, (list, tuple)) else [info]) if i is not None]


def wrapped_schema(node: fx.Node):
    """The wrapped op's schema (a higher-order op's travels as ``_op_schema``); None when
    there is none to read."""
    op = node.args[0] if node.args else None
    if isinstance(op, torch._ops.OpOverload):
        return op._schema
    spec = node.kwargs.get("_op_schema")
    if isinstance(spec, fx.Node) and spec.op == "get_attr":
        spec = getattr(node.graph.owning_module, spec.target, None)
    try:
        import torch.utils._pytree as pytree

        return pytree.tree_unflatten([], spec).schema
    except Exception:  # noqa: BLE001 - not a schema holder
        return None


def written_memory(node: fx.Node) -> List[fx.Node]:
    """The tensors whose memory the op writes when the call runs in place: the written
    arguments (v1), or every base (v2)."""
    if is_functionalized_call(node):
        return [n for _, n in written_operands(node)]
    return nodes_in(node.kwargs.get("_all_bases"))


def read_only_arguments(node: fx.Node) -> List[Tuple[str, object]]:
    """``(name, value)`` of the op's arguments it only reads, as the call passes them (of a
    higher-order op too, from the schema the call carries; none where it carries none)."""
    schema = wrapped_schema(node)
    if schema is None:
        return []
    names = [a.name for a in schema.arguments if a.alias_info is None or not a.alias_info.is_write]
    return [(name, node.kwargs[name]) for name in names if name in node.kwargs]


def wrapped_op(node: fx.Node) -> torch._ops.OpOverload:
    return node.args[0]


def written_names(op: torch._ops.OpOverload) -> Tuple[str, ...]:
    """The names of the arguments ``op`` writes, in schema order."""
    return tuple(a.name for a in op._schema.arguments if a.alias_info is not None and a.alias_info.is_write)


def result_slots(op: torch._ops.OpOverload) -> int:
    """How many slots of a functionalized call hold the op's own result."""
    return max(1, len(op._schema.returns))


def output_role(op: torch._ops.OpOverload, index: int, v2: bool = False) -> Optional[Tuple[str, object]]:
    """What item ``index`` of a functionalized call of ``op`` is: ``("result", i)`` (the op's
    ``i``-th result, ``i`` None where the op has one), ``("written", name)`` (v1) or
    ``("base", j)`` (v2: the new value of base ``j``)."""
    slots = result_slots(op)
    if not isinstance(index, int) or index < 0:
        return None
    if index < slots:
        return ("result", None if len(op._schema.returns) <= 1 else index)
    if v2:
        return ("base", index - slots)
    names = written_names(op)
    if index - slots < len(names):
        return ("written", names[index - slots])
    return None


def is_custom_op(target) -> bool:
    """An op overload outside ATen and prims that writes some argument: its schema is all that is
    known about it (no functional variant, no decomposition)."""
    return (isinstance(target, torch._ops.OpOverload) and target.namespace not in ("aten", "prims")
            and bool(written_names(target)))


def bound_written(op: torch._ops.OpOverload, args, kwargs) -> List[Tuple[str, object]]:
    """``(name, value)`` of each argument a call of ``op`` writes: a node, a list (``Tensor(a!)[]``)
    or None."""
    out = []
    for i, a in enumerate(op._schema.arguments):
        if a.alias_info is not None and a.alias_info.is_write:
            out.append((a.name, args[i] if i < len(args) else kwargs.get(a.name)))
    return out


def call_arguments(node: fx.Node) -> dict:
    """The wrapped op's arguments, by schema name (functionalized calls pass them as keywords)."""
    return dict(node.kwargs)


def read_operands(node: fx.Node) -> List[fx.Node]:
    """The tensors a functionalized call reads: every tensor argument of the op (it reads the
    ones it writes, too)."""
    out: List[fx.Node] = []
    for value in node.kwargs.values():
        out.extend(nodes_in(value))
    return out


def written_operands(node: fx.Node) -> List[Tuple[str, fx.Node]]:
    """``(name, tensor)`` for every tensor the wrapped op would write, in schema order."""
    kwargs = node.kwargs
    return [(name, n) for name in written_names(wrapped_op(node)) for n in nodes_in(kwargs.get(name))]

