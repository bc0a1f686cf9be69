"""The graph to draw: every node, or, for a large graph, the nodes near the rules' work with the
regions far from it collapsed into ``... N nodes ...`` boxes.

A region only ever holds nodes that are consecutive in the graph's (topological) node order, so
the drawn graph stays acyclic: anything reading from a region comes after it, anything it reads
comes before it."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Set, Tuple

from rewrite.engine.report import GraphSnapshot, NodeInfo
from rewrite.explain.diff import writes_of

#: Graphs with more nodes than this are drawn collapsed (with the full drawing one click away).
COLLAPSE_ABOVE = 40
#: How many steps (reads, in either direction) around a changed or candidate node stay visible.
CONTEXT = 2
#: At most this many readers (and inputs) of one node are followed into the context.
MAX_NEIGHBOURS = 8
#: Fewer hidden nodes than this are drawn rather than collapsed.
MIN_REGION = 4

REGION_PREFIX = "\u2026region:"


@dataclass
class DrawNode:
    id: str
    info: Optional[NodeInfo] = None          # the node; None for a collapsed region
    hidden: Tuple[NodeInfo, ...] = ()         # the nodes a region stands for

    @property
    def is_region(self) -> bool:
        return self.info is None

    def summary(self, limit: int = 3) -> str:
        """A region's contents by op: ``aten.add x12, aten.mul x3, ...``."""
        counts = Counter("input" if n.op == "placeholder" else n.target for n in self.hidden)
        parts = [f"{op} \u00d7{k}" for op, k in counts.most_common(limit)]
        return ", ".join(parts) + (", \u2026" if len(counts) > limit else "")


@dataclass
class DrawGraph:
    nodes: List[DrawNode] = field(default_factory=list)      # in topological order
    reads: List[Tuple[str, str]] = field(default_factory=list)   # (source id, user id)
    writes: List[Tuple[str, str]] = field(default_factory=list)  # (in-place op id, written id)

    @property
    def hidden_count(self) -> int:
        return sum(len(n.hidden) for n in self.nodes)

    def by_id(self) -> Dict[str, DrawNode]:
        return {n.id: n for n in self.nodes}


def full(snapshot: GraphSnapshot) -> DrawGraph:
    return _draw_graph(snapshot, [])


def condensed(snapshot: GraphSnapshot, focus: Iterable[str], context: int = CONTEXT,
              min_region: int = MIN_REGION) -> DrawGraph:
    """The graph with the nodes more than ``context`` steps from ``focus`` collapsed into regions."""
    keep = neighbourhood(snapshot, focus, context)
    return _draw_graph(snapshot, regions(snapshot, keep, min_region))


def neighbourhood(snapshot: GraphSnapshot, focus: Iterable[str], context: int = CONTEXT) -> Set[str]:
    """``focus``, what it reads and what reads it up to ``context`` steps away (following at most
    MAX_NEIGHBOURS per node), the buffers the kept in-place ops write, and the output."""
    names = {n.name: n for n in snapshot.nodes}
    users: Dict[str, List[str]] = {}
    for n in snapshot.nodes:
        for i in n.inputs:
            users.setdefault(i, []).append(n.name)
    start = [f for f in focus if f in names]
    keep = set(start)
    for step in (lambda name: names[name].inputs, lambda name: users.get(name, ())):
        level = start
        for _ in range(context):
            nxt = []
            for name in level:
                for other in list(step(name))[:MAX_NEIGHBOURS]:
                    if other in names and other not in keep:
                        keep.add(other)
                        nxt.append(other)
            level = nxt
    for name in list(keep):
        keep.update(w for w in writes_of(names[name]) if w in names)
    keep.update(n.name for n in snapshot.nodes if n.op == "output")
    return keep


def regions(snapshot: GraphSnapshot, keep: Set[str], min_region: int = MIN_REGION) -> List[List[NodeInfo]]:
    """The groups of nodes to collapse.  Every maximal run of consecutive nodes outside ``keep``
    is split into its connected parts; parts of at least ``min_region`` nodes become regions of
    their own, the smaller ones of a run are pooled into one region (or drawn, when the pool is
    smaller than ``min_region`` too)."""
    out: List[List[NodeInfo]] = []
    run: List[NodeInfo] = []
    for n in snapshot.nodes + [None]:
        if n is not None and n.name not in keep:
            run.append(n)
            continue
        if run:
            parts = _connected_parts(run)
            pool = [m for p in parts if len(p) < min_region for m in p]
            out += [p for p in parts if len(p) >= min_region]
            if len(pool) >= min_region:
                position = {m.name: i for i, m in enumerate(run)}
                out.append(sorted(pool, key=lambda m: position[m.name]))
            run = []
    return out


def _connected_parts(run: List[NodeInfo]) -> List[List[NodeInfo]]:
    parent = {n.name: n.name for n in run}

    def root(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for n in run:
        for other in n.inputs + writes_of(n):
            if other in parent:
                parent[root(other)] = root(n.name)
    parts: Dict[str, List[NodeInfo]] = {}
    for n in run:
        parts.setdefault(root(n.name), []).append(n)
    return list(parts.values())


def _draw_graph(snapshot: GraphSnapshot, groups: List[List[NodeInfo]]) -> DrawGraph:
    owner: Dict[str, str] = {}
    first: Dict[str, List[NodeInfo]] = {}
    for group in groups:
        region_id = REGION_PREFIX + group[0].name
        first[group[0].name] = group
        for n in group:
            owner[n.name] = region_id
    graph = DrawGraph()
    for n in snapshot.nodes:
        if n.name in first:
            graph.nodes.append(DrawNode(owner[n.name], hidden=tuple(first[n.name])))
        elif n.name not in owner:
            owner[n.name] = n.name
            graph.nodes.append(DrawNode(n.name, info=n))
    reads, writes = set(), set()
    for n in snapshot.nodes:
        me = owner[n.name]
        for src in n.inputs:
            if src in owner and owner[src] != me and (owner[src], me) not in reads:
                reads.add((owner[src], me))
                graph.reads.append((owner[src], me))
        for dst in writes_of(n):
            if dst in owner and owner[dst] != me and (me, owner[dst]) not in writes:
                writes.add((me, owner[dst]))
                graph.writes.append((me, owner[dst]))
    return graph
