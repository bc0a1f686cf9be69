"""The evaluation context predicates, functions and actions receive as ``ctx``."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Set

import torch.fx as fx

from rewrite.analysis.graph_facts import GraphFacts
from rewrite.engine.actions import Editor


@dataclass
class PathValue:
    """The value a ``path`` section binds: a node and the chain of users it followed."""

    source: fx.Node
    steps: List[fx.Node] = field(default_factory=list)
    note: str = ""          # why the path stopped where it did

    @property
    def last(self) -> fx.Node:
        return self.steps[-1] if self.steps else self.source

    def describe(self) -> str:
        return " -> ".join(n.name for n in [self.source, *self.steps])


class Context:
    def __init__(self, root: fx.GraphModule, graph: fx.Graph, facts: GraphFacts, fact_tables: Dict[str, Dict],
                 graph_kind: str, legality_enabled: bool = True):
        self.root = root
        self.graph = graph
        self.facts = facts
        self.graph_kind = graph_kind
        self.legality_enabled = legality_enabled
        self._fact_tables = fact_tables
        self.bindings: Dict[str, Any] = {}
        self.mutated_indices: List[int] = []
        self.root_node: Optional[fx.Node] = None
        self._txn = None
        self.edit = Editor(self)

    @property
    def txn(self):
        """The transaction the actions edit the graph through (None between rewrites)."""
        return self._txn

    @txn.setter
    def txn(self, txn) -> None:
        self._txn = txn
        self.facts.editing = txn is not None   # whole-graph facts are not kept while it edits

    def fact_table(self, name: str) -> Dict[str, frozenset]:
        return self._fact_tables.get(name, {})

    def reset(self, node: Optional[fx.Node] = None) -> None:
        self.bindings = {}
        self.mutated_indices = []
        self.root_node = node

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

    def rebind(self, old: fx.Node, new: fx.Node) -> None:
        """After an action replaced ``old`` by ``new``, names bound to ``old`` mean ``new``."""
        for k, v in self.bindings.items():
            if v is old:
                self.bindings[k] = new
        if self.root_node is old:
            self.root_node = new
