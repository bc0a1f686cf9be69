"""Fake values of graph nodes: the one place that knows where they are kept.

AOTAutograd and Inductor store a node's fake tensor (or SymInt) in ``meta["val"]``; Dynamo graphs
use ``meta["example_value"]``.
"""
from __future__ import annotations

from typing import Optional

import torch
import torch.fx as fx


def fake_of(node):
    """The fake value of a node (tensor, SymInt, tuple...), or None."""
    if not isinstance(node, fx.Node):
        return None
    meta = node.meta
    return meta["val"] if "val" in meta else meta.get("example_value")


def fake_value(node) -> Optional[torch.Tensor]:
    """The fake tensor of a tensor-valued node, or None."""
    val = fake_of(node)
    return val if isinstance(val, torch.Tensor) else None


def fake_args(a):
    """``a`` (an argument structure) with every node replaced by its fake value."""
    return torch.fx.node.map_aggregate(a, lambda n: fake_of(n) if isinstance(n, fx.Node) else n)


def fake_mode_of(value):
    """The FakeTensorMode a fake tensor (or the first of a list of them: ``split``) belongs to,
    or None."""
    if isinstance(value, (list, tuple)):
        return next((m for m in map(fake_mode_of, value) if m is not None), None)
    return getattr(value, "fake_mode", None)


def graph_fake_mode(graph: fx.Graph):
    """The fake mode of the first node that has a fake tensor, or None."""
    for node in graph.nodes:
        mode = fake_mode_of(fake_value(node))
        if mode is not None:
            return mode
    return None


def meta_key(graph: fx.Graph) -> str:
    """Which meta key this graph's nodes use for fake values."""
    for node in graph.nodes:
        if "val" in node.meta:
            return "val"
        if "example_value" in node.meta:
            return "example_value"
    return "val"
