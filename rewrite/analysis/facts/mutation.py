"""Per-op read/write/alias facts, derived from op schemas (ATen graphs) and from Python naming
conventions (Dynamo graphs, whose nodes call torch functions and tensor methods).

These are the MLIR-bufferization-style facts every in-place decision rests on: which operands an
op writes, and whether its result is a view of an operand.
"""
from __future__ import annotations

import operator
from typing import Any, List, Optional, Tuple

import torch
import torch.fx as fx

from rewrite.analysis.facts import op_facts

_VIEW_METHODS = frozenset({
    "view", "view_as", "reshape", "reshape_as", "transpose", "t", "permute", "select", "narrow",
    "expand", "expand_as", "squeeze", "unsqueeze", "flatten", "unflatten", "diagonal", "as_strided",
    "unfold", "__getitem__", "T", "mT", "real", "imag", "unbind", "split", "chunk", "movedim",
    "swapaxes", "swapdims", "detach", "alias",
})


def schema_of(target) -> Optional[torch._C.FunctionSchema]:
    if isinstance(target, torch._ops.OpOverload):
        return target._schema
    return None


MISSING = object()   # a required argument the call does not pass


def bound_arguments(node: fx.Node) -> Optional[List[Tuple[str, Any]]]:
    """``[(schema name, value), ...]`` for every argument of an ATen call, in schema order, with
    defaults filled in (``MISSING`` for a required argument the call does not pass); None for
    calls without a schema."""
    schema = schema_of(node.target)
    if schema is None:
        return None
    out = []
    for i, arg in enumerate(schema.arguments):
        if i < len(node.args):
            value = node.args[i]
        elif arg.name in node.kwargs:
            value = node.kwargs[arg.name]
        elif arg.has_default_value():
            value = arg.default_value
        else:
            value = MISSING
        out.append((arg.name, value))
    return out


def written_operands(node: fx.Node) -> List[fx.Node]:
    """The nodes whose memory this node writes."""
    if node.op == "call_function":
        schema = schema_of(node.target)
        if schema is not None:
            out = []
            for i, arg in enumerate(schema.arguments):
                if arg.alias_info is not None and arg.alias_info.is_write:
                    value = node.args[i] if i < len(node.args) else node.kwargs.get(arg.name)
                    out.extend(nodes_in(value))
            return out
        if node.target is operator.setitem:
            return nodes_in(node.args[0])
        name = getattr(node.target, "__name__", "")
        if _is_inplace_name(name) and node.args:
            return nodes_in(node.args[0])
        if "out" in node.kwargs:
            return nodes_in(node.kwargs["out"])
        return []
    if node.op == "call_method":
        if _is_inplace_name(node.target) or node.target == "__setitem__":
            return nodes_in(node.args[0])
        return []
    return []


def is_copy_target(target) -> bool:
    return op_facts.is_copy_target(target)


def is_copy(node: fx.Node) -> bool:
    """``copy_(dst, src)`` in either ATen or Dynamo spelling."""
    if node.op == "call_function":
        return is_copy_target(node.target)
    return node.op == "call_method" and node.target == "copy_"


#: Tensor attributes that are views of the tensor (Dynamo records ``x.mT`` as ``getattr``).
_VIEW_ATTRIBUTES = frozenset({"T", "mT", "H", "mH", "real", "imag"})


def view_source(node: fx.Node) -> Optional[fx.Node]:
    """The operand this node's result is a view of, or None."""
    if node.op == "call_function":
        schema = schema_of(node.target)
        if schema is not None:
            if schema.returns and schema.returns[0].alias_info is not None \
                    and not schema.returns[0].alias_info.is_write and node.args:
                src = node.args[0]
                return src if isinstance(src, fx.Node) else None
            return None
        if node.target is operator.getitem and isinstance(node.args[0], fx.Node):
            val = node.args[0].meta.get("example_value", node.args[0].meta.get("val"))
            if isinstance(val, torch.Tensor) and _basic_index(node.args[1]):
                return node.args[0]
        if node.target is getattr and len(node.args) == 2 and node.args[1] in _VIEW_ATTRIBUTES \
                and isinstance(node.args[0], fx.Node):
            return node.args[0]          # Dynamo records `x.mT` as getattr(x, "mT") (fuzz seed 37 p172)
        return None
    if node.op == "call_method" and node.target in _VIEW_METHODS:
        src = node.args[0]
        return src if isinstance(src, fx.Node) else None
    return None


def _basic_index(index) -> bool:
    """``x[index]`` is a view: ints, slices, None and Ellipsis only (a tensor or list index
    gathers a copy)."""
    items = index if isinstance(index, tuple) else (index,)
    return all(i is None or i is Ellipsis or isinstance(i, (int, slice)) and not isinstance(i, bool) for i in items)


def _is_inplace_name(name: str) -> bool:
    return name.endswith("_") and not name.endswith("__") and not name.startswith("_")


def nodes_in(value) -> List[fx.Node]:
    if isinstance(value, fx.Node):
        return [value]
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in nodes_in(v)]
    return []
