"""Matching graph-node targets against resolved op sets (packets match every overload)."""
from __future__ import annotations

from typing import Collection

import torch


def targets_match(target, allowed: Collection) -> bool:
    if target in allowed:
        return True
    packet = getattr(target, "overloadpacket", None) if isinstance(target, torch._ops.OpOverload) else None
    return packet is not None and packet in allowed


def op_display_name(target) -> str:
    """``aten.slice_scatter`` for overloads and packets; the function name otherwise."""
    if isinstance(target, torch._ops.OpOverload):
        return f"{target.namespace}.{target._opname}"
    if isinstance(target, torch._ops.OpOverloadPacket):
        return f"{target._qualified_op_name.replace('::', '.')}"
    if isinstance(target, torch._ops.HigherOrderOperator):
        return f"higher_order.{target.name()}"
    return str(getattr(target, "__name__", target))
