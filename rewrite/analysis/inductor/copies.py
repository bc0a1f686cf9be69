"""Full copies in a graph: what a rewrite is meant to remove, counted the same way for every
graph (ours, stock Inductor's, the one a benchmark captured).

A *copy* is a node that writes a whole new buffer (or a whole graph input) with values that
already exist elsewhere: ``clone``, the functional ``copy``, functional scatters and indexed
updates (they copy their base and patch it), the copy-back ``copy_`` of a value into a graph
input, and a materialization (``rewrite::materialized_copy``, the engine's copy, or a ``copy_``
into a fresh ``empty_like``).  Its cost is the bytes it
writes; sizes stay symbolic expressions on symbolic shapes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import List, Optional

import torch
import torch.fx as fx

from rewrite.analysis.facts import op_facts
from rewrite.analysis.facts.op_facts import is_materialized_copy
from rewrite.analysis.facts.fake import fake_value
from rewrite.analysis.semantics.layout_maps import dim_key
from rewrite.analysis.facts.op_facts import op_display_name

aten = torch.ops.aten

#: Functional ops that copy a whole tensor (by op name without overload).
COPYING_OPS = frozenset({
    "aten.clone", "aten.copy", "aten.slice_scatter", "aten.select_scatter", "aten.diagonal_scatter",
    "aten.as_strided_scatter", "aten.index_put", "aten._unsafe_index_put", "aten.index_copy",
    "aten.index_add", "aten.scatter", "aten.scatter_add", "aten.scatter_reduce", "aten.masked_scatter",
})


@dataclass(frozen=True)
class Copy:
    node: str
    op: str
    kind: str          # "functional", "copy-back", "materialization"
    shape: tuple
    nbytes: object     # int, or a sympy expression
    hint_bytes: Optional[int] = None   # at the sizes this graph was compiled for (display only)

    def describe(self) -> str:
        at = "" if isinstance(self.nbytes, int) or self.hint_bytes is None else f" (= {self.hint_bytes} here)"
        return f"{self.node} ({self.op}, {self.kind}, {list(self.shape)}, {self.nbytes} bytes{at})"


def copy_of(n: fx.Node) -> Optional[Copy]:
    """The copy ``n`` makes, or None."""
    if n.op != "call_function":
        return None
    name = op_display_name(n.target)
    kind = None
    if name == "aten.clone" and len(n.users) == 1 and _materializes(next(iter(n.users))):
        return None                       # the value a materialization copies: counted there
    if is_materialized_copy(n):
        kind = "materialization"
    elif name in COPYING_OPS:
        kind = "functional"
    elif op_facts.is_copy_target(n.target) and isinstance(n.args[0], fx.Node):
        dst = n.args[0]
        root = dst
        while op_facts.alias_source(root) is not None:
            root = op_facts.alias_source(root)
        if root.op == "placeholder" and root is dst and n.args[1] is not dst:
            kind = "copy-back"
        elif root.op == "call_function" and root.target is aten.empty_like.default:
            kind = "materialization"
    if kind is None:
        return None
    val = fake_value(n)
    if val is None:
        return None
    numel = val.numel()
    hint = numel if isinstance(numel, int) else numel.node.hint
    return Copy(n.name, name, kind, tuple(dim_key(s) for s in val.shape), dim_key(numel) * val.element_size(),
                None if hint is None else int(hint) * val.element_size())


def _materializes(n: fx.Node) -> bool:
    return (n.op == "call_function" and op_facts.is_copy_target(n.target) and isinstance(n.args[0], fx.Node)
            and n.args[0].op == "call_function" and n.args[0].target is aten.empty_like.default)


def copies(graph: fx.Graph) -> List[Copy]:
    return [c for c in map(copy_of, graph.nodes) if c is not None]


def total_bytes(found: List[Copy]):
    total = 0
    for c in found:
        total = total + c.nbytes
    return total
