"""One picture of one graph of a report: which nodes to draw, how each looks (from what the rules
did to it), what its hover text says, laid out and drawn."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Iterable, List, Sequence

import rewrite.explain.collapse as collapse
from rewrite.engine.report import Candidate, GraphSnapshot
from rewrite.explain.diff import GraphChange, candidate_marks, writes_of
from rewrite.explain.labels import box_lines, tooltip
from rewrite.explain.layout import layout
from rewrite.explain.svg import Look, graph_svg

STATUS_NOTE = {"removed": "removed by the rules", "added": "added by the rules",
               "changed": "changed by the rules (other op or inputs than before)"}


@dataclass
class Picture:
    svg: str
    drawn: int        # boxes drawn
    hidden: int       # nodes collapsed into regions


def focus_of(change: GraphChange, candidates: Iterable[Candidate]) -> set:
    """The nodes a reader of the picture is looking for: changed ones and candidates."""
    return change.touched | {c.node for c in candidates}


def draw(snapshot: GraphSnapshot, change: GraphChange, side: str, candidates: Sequence[Candidate], uid: str,
         collapsed: bool, label: str) -> Picture:
    """``side``: "before" or "after" (which changes to colour).  ``collapsed``: draw the regions
    far from the changed and candidate nodes as ``... N nodes ...`` boxes."""
    graph = (collapse.condensed(snapshot, focus_of(change, candidates)) if collapsed
             else collapse.full(snapshot))
    marks = candidate_marks(candidates)
    notes = _notes(candidates)
    looks: Dict[str, Look] = {}
    tips: Dict[str, str] = {}
    for node in graph.nodes:
        if node.is_region:
            looks[node.id] = Look("region")
            tips[node.id] = tooltip(node)
            continue
        info = node.info
        status = change.status(info.name, side)
        if status != "same":
            fill = status
        else:
            fill = {"placeholder": "input", "output": "output"}.get(info.op, "op")
        looks[node.id] = Look(fill, in_place=bool(writes_of(info)), mark=marks.get(info.name))
        tips[node.id] = tooltip(node, ([STATUS_NOTE[status]] if status in STATUS_NOTE else [])
                                + notes.get(info.name, []))
    lay = layout(graph, {n.id: box_lines(n) for n in graph.nodes})
    return Picture(graph_svg(graph, lay, looks, tips, uid, label), len(graph.nodes), graph.hidden_count)


def _notes(candidates: Sequence[Candidate]) -> Dict[str, List[str]]:
    notes: Dict[str, List[str]] = {}
    for c in candidates:
        what = "fired" if c.fired else f"stopped at {c.stopped_at}: {c.reason}"
        notes.setdefault(c.node, []).append(f"rule {c.rule} ({c.location}): {what}")
    return notes
