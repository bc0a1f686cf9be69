"""What the rules did to one graph, read from a report's before/after snapshots: the nodes they
removed, added and changed, the nodes candidates were tried on, and which node writes into which."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterable, Optional, Set, Tuple

from rewrite.engine.report import Candidate, GraphSnapshot, NodeInfo

EMPTY = GraphSnapshot()


@dataclass
class GraphChange:
    removed: Set[str] = field(default_factory=set)   # only in the graph before
    added: Set[str] = field(default_factory=set)     # only in the graph after
    changed: Set[str] = field(default_factory=set)   # in both, with another op or other inputs

    @property
    def touched(self) -> Set[str]:
        return self.removed | self.added | self.changed

    @property
    def unchanged(self) -> bool:
        return not self.touched

    def status(self, name: str, side: str) -> str:
        """``removed``, ``added``, ``changed`` or ``same`` for a node of the graph ``side``
        ("before" or "after")."""
        if name in self.changed:
            return "changed"
        if side == "before" and name in self.removed:
            return "removed"
        if side == "after" and name in self.added:
            return "added"
        return "same"


def compare(before: Optional[GraphSnapshot], after: Optional[GraphSnapshot]) -> GraphChange:
    old = {n.name: n for n in (before or EMPTY).nodes}
    new = {n.name: n for n in (after or EMPTY).nodes}
    return GraphChange(
        removed=set(old) - set(new),
        added=set(new) - set(old),
        changed={k for k in set(old) & set(new)
                 if (old[k].op, old[k].target, old[k].inputs) != (new[k].op, new[k].target, new[k].inputs)})


def same_graph(a: Optional[GraphSnapshot], b: Optional[GraphSnapshot]) -> bool:
    return a is not None and b is not None and a.nodes == b.nodes


def writes_of(node: NodeInfo) -> Tuple[str, ...]:
    """The nodes whose memory ``node`` writes.  The report records them for ATen ops; for the
    torch-level in-place ops of a Dynamo graph (``x.add_(y)``, ``torch.relu_(x)``, ``x[i] = v``),
    where it records none, it is the tensor written, their first input."""
    if node.writes:
        return node.writes
    if node.inputs and _torch_level_in_place(node):
        return node.inputs[:1]
    return ()


def _torch_level_in_place(node: NodeInfo) -> bool:
    if node.op == "call_function" and "." in node.target:   # an ATen op: the report knows
        return False
    if node.op not in ("call_function", "call_method"):
        return False
    name = node.target
    return name == "setitem" or (name.endswith("_") and not name.startswith("_"))


def candidate_marks(candidates: Iterable[Candidate]) -> Dict[str, str]:
    """Node name -> ``fired`` when some rule fired on it, else ``rejected`` when one was tried."""
    marks: Dict[str, str] = {}
    for c in candidates:
        if c.fired or marks.get(c.node) != "fired":
            marks[c.node] = "fired" if c.fired else "rejected"
    return marks
