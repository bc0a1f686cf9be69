"""The evaluation context predicates and actions receive as ``ctx``."""
from __future__ import annotations

from typing import Any, Dict, Iterable, List, Optional, Set

import torch.fx as fx

from rewrite.analysis.graph_facts import GraphFacts
from rewrite.engine.compiler import PathValue


class Context:
    def __init__(self, root: fx.GraphModule, graph: fx.Graph, facts: GraphFacts, fact_tables: Dict[str, Dict],
                 graph_kind: str):
        self.root = root
        self.graph = graph
        self.facts = facts
        self.graph_kind = graph_kind
        self._fact_tables = fact_tables
        self.bindings: Dict[str, Any] = {}
        self.mutated_indices: List[int] = []
        self.txn = None
        self.bytes_removed = 0
        self.created: List[fx.Node] = []
        self.removed: List[str] = []

    def fact_table(self, name: str) -> Dict[str, frozenset]:
        return self._fact_tables.get(name, {})

    def reset(self, bindings: Optional[Dict[str, Any]] = None) -> None:
        self.bindings = dict(bindings or {})
        self.mutated_indices = []
        self.bytes_removed = 0
        self.created, self.removed = [], []

    def matched_nodes(self) -> Set[fx.Node]:
        """The nodes this match consists of: bound nodes and the steps of bound paths."""
        out: Set[fx.Node] = set()
        for v in self.bindings.values():
            if isinstance(v, fx.Node):
                out.add(v)
            elif isinstance(v, PathValue):
                out.add(v.source)
                out.update(v.steps)
        return out

    def note_created(self, *nodes: fx.Node) -> None:
        self.created.extend(nodes)

    def note_removed(self, *nodes: fx.Node) -> None:
        self.removed.extend(n.name for n in nodes)

    def rebind(self, old: fx.Node, new: fx.Node) -> None:
        """After an action replaced ``old`` by ``new``, names bound to ``old`` mean ``new``."""
        for k, v in self.bindings.items():
            if v is old:
                self.bindings[k] = new

    def live_created(self) -> Iterable[str]:
        return [n.name for n in self.created if not n._erased]
