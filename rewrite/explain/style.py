"""Every colour the pictures use, with what it means: the SVG drawing takes its colours from here
and the legend lists all of them, so a colour cannot appear without an explanation."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, Tuple

TEXT = "#202124"
TEXT_SOFT = "#5f6368"
BORDER = "#5f6368"


@dataclass(frozen=True)
class Swatch:
    key: str
    label: str                 # what the legend says
    shape: str                 # "box" (a node fill), "border" (a node outline), "bar", "edge"
    colour: str
    dashed: bool = False
    width: float = 1.0


#: Node fills: what a node is, or what the rules did to it (one per node).
FILLS: Tuple[Swatch, ...] = (
    Swatch("input", "graph input", "box", "#dbe8fd"),
    Swatch("output", "graph output", "box", "#e7defa"),
    Swatch("op", "operation the rules left as it was", "box", "#ffffff"),
    Swatch("removed", "removed by the rules (in the graph before)", "box", "#f9cfca"),
    Swatch("added", "added by the rules (in the graph after)", "box", "#c9ecd0"),
    Swatch("changed", "kept but changed by the rules (other op or inputs)", "box", "#fff0a8"),
    Swatch("region", "\u2026 N nodes \u2026: a region far from the rules' work, collapsed", "box", "#e8eaed",
           dashed=True),
)

#: Marks drawn over a node's fill.
MARKS: Tuple[Swatch, ...] = (
    Swatch("in_place", "in-place op: writes the memory of another node (left bar)", "bar", "#c5221f"),
    Swatch("fired", "a rule fired on this node (candidate table: fired)", "border", "#188038", width=3.0),
    Swatch("rejected", "a rule was tried here and rejected (candidate table: stopped)", "border", "#e37400",
           dashed=True, width=3.0),
)

#: Edges.
EDGES: Tuple[Swatch, ...] = (
    Swatch("reads", "reads: input \u2192 the op that uses it", "edge", "#9aa0a6", width=1.2),
    Swatch("writes", "writes into: in-place op \u2192 the buffer whose memory it overwrites", "edge", "#c5221f",
           dashed=True, width=1.8),
)

ALL: Tuple[Swatch, ...] = FILLS + MARKS + EDGES
BY_KEY: Dict[str, Swatch] = {s.key: s for s in ALL}


def colour(key: str) -> str:
    return BY_KEY[key].colour
