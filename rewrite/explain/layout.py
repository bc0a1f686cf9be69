"""Where each box goes: a layered top-down layout computed here (no external tools).

Every node sits one layer below the deepest node it reads (and, where in-place writes make
order matter, below the last writer of what it reads or writes and below the readers of what it
overwrites); nodes that read nothing (inputs, constants) sit just above their first reader, the
output at the bottom.  A read that skips
layers runs down a lane: a thin slot in each layer it crosses, so it passes between boxes
rather than through them.  Within a layer, boxes and lanes follow the mean position of what
they read (sources: of their readers), moving aside only as far as their neighbours need, so
chains stay straight; a layer wider than MAX_ROW_W wraps into several rows.  Boxes are as wide
as their longest line up to MAX_W, and longer lines wrap: no label is cut."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Sequence, Tuple

from rewrite.explain.collapse import DrawGraph
from rewrite.explain.labels import Line

CHAR_W = 7.4        # advance of a 12px monospace glyph (DejaVu Sans Mono: 7.22), with some slack
LINE_H = 15
PAD_X, PAD_Y = 12, 7
MIN_W, MAX_W = 96, 290
GAP_X, GAP_Y = 20, 40
MARGIN = 16
WRITE_LANE = 44     # room left of the boxes for write edges to bend into
MAX_ROW_W = 1100
LANE_W = 2.0
LANE_PREFIX = "\u2026lane:"
BREAK_AFTER = (" ", "._,([")   # preferred separators first


@dataclass
class Box:
    x: float
    y: float
    w: float
    h: float
    lines: List[Line] = field(default_factory=list)   # wrapped to fit

    @property
    def cx(self) -> float:
        return self.x + self.w / 2

    @property
    def cy(self) -> float:
        return self.y + self.h / 2

    @property
    def bottom(self) -> float:
        return self.y + self.h


@dataclass
class Layout:
    boxes: Dict[str, Box]
    rows: List[List[str]]
    width: float
    height: float
    lanes: Dict[str, Box] = field(default_factory=dict)              # points of long reads
    routes: Dict[Tuple[str, str], List[str]] = field(default_factory=dict)  # read -> its lane points

    def read_points(self, a: str, b: str) -> List[Tuple[float, float]]:
        """Where the read ``a -> b`` runs: out of ``a``'s bottom, down its lane, into ``b``'s top."""
        points = [(self.boxes[a].cx, self.boxes[a].bottom)]
        for lane in self.routes.get((a, b), ()):
            box = self.lanes[lane]
            points += [(box.x, box.y), (box.x, box.bottom)]
        return points + [(self.boxes[b].cx, self.boxes[b].y)]


def max_chars() -> int:
    return int((MAX_W - 2 * PAD_X) / CHAR_W)


def wrap(text: str, limit: int) -> List[str]:
    """``text`` in pieces of at most ``limit`` characters, broken after a separator when one
    is near the end of the piece."""
    out = []
    while len(text) > limit:
        cut = limit
        for separators in BREAK_AFTER:
            at = max(text.rfind(c, 1, limit) for c in separators) + 1
            if at >= limit // 2:
                cut = at
                break
        out.append(text[:cut])
        text = text[cut:]
    out.append(text)
    return out


def measure(lines: Sequence[Line]) -> Tuple[float, float, List[Line]]:
    """Width, height and wrapped lines of a box holding ``lines``."""
    wrapped = [(role, piece) for role, text in lines for piece in wrap(text, max_chars())]
    longest = max((len(t) for _, t in wrapped), default=0)
    w = min(MAX_W, max(MIN_W, longest * CHAR_W + 2 * PAD_X))
    return w, len(wrapped) * LINE_H + 2 * PAD_Y, wrapped


def order_constraints(graph: DrawGraph) -> Dict[str, List[str]]:
    """For each node, the nodes that must be drawn above it: what it reads, and, because an
    in-place write makes order matter, the last writer of what it reads or writes and the
    readers of what it overwrites since that buffer's last write.  Only earlier nodes (in the
    graph's order) count, so the constraints never form a cycle."""
    position = {n.id: i for i, n in enumerate(graph.nodes)}
    reads: Dict[str, List[str]] = {n.id: [] for n in graph.nodes}
    written: Dict[str, List[str]] = {n.id: [] for n in graph.nodes}
    for a, b in graph.reads:
        reads[b].append(a)
    for a, b in graph.writes:
        written[a].append(b)
    last_writer: Dict[str, str] = {}
    readers: Dict[str, List[str]] = {}
    above: Dict[str, List[str]] = {}
    for n in graph.nodes:
        k = n.id
        deps = list(reads[k]) + [last_writer[s] for s in reads[k] if s in last_writer]
        for b in written[k]:
            deps += readers.get(b, []) + ([last_writer[b]] if b in last_writer else [])
        above[k] = [d for d in dict.fromkeys(deps) if d != k and position[d] < position[k]]
        for s in reads[k]:
            readers.setdefault(s, []).append(k)
        for b in written[k]:
            last_writer[b] = k
            readers[b] = []
    return above


def layers(graph: DrawGraph) -> Dict[str, int]:
    above = order_constraints(graph)
    below: Dict[str, List[str]] = {n.id: [] for n in graph.nodes}
    for k, deps in above.items():
        for d in deps:
            below[d].append(k)
    depth: Dict[str, int] = {}
    for n in graph.nodes:
        depth[n.id] = 1 + max(depth[d] for d in above[n.id]) if above[n.id] else 0
    for n in reversed(graph.nodes):   # sources move down to just above their first reader
        if not above[n.id] and below[n.id]:
            depth[n.id] = max(0, min(depth[u] for u in below[n.id]) - 1)
    outputs = [n.id for n in graph.nodes if n.info is not None and n.info.op == "output"]
    bottom = 1 + max((d for k, d in depth.items() if k not in outputs), default=-1)
    for o in outputs:
        depth[o] = bottom
    return depth


def layout(graph: DrawGraph, lines: Dict[str, List[Line]]) -> Layout:
    depth = layers(graph)
    sizes = {n.id: measure(lines[n.id]) for n in graph.nodes}
    # A read spanning several layers runs down a lane: one point per layer it crosses, shared by
    # all reads of the same source, placed like a thin box so that it passes between boxes.
    preds: Dict[str, List[str]] = {n.id: [] for n in graph.nodes}
    succs: Dict[str, List[str]] = {n.id: [] for n in graph.nodes}
    routes: Dict[Tuple[str, str], List[str]] = {}
    for a, b in graph.reads:
        route, prev = [], a
        for d in range(depth[a] + 1, depth[b]):
            lane = f"{LANE_PREFIX}{d}:{a}"
            if lane not in sizes:
                sizes[lane] = (LANE_W, 0.0, [])
                depth[lane] = d
                preds[lane], succs[lane] = [prev], []
                succs[prev].append(lane)
            route.append(lane)
            prev = lane
        routes[(a, b)] = route
        preds[b].append(prev)
        succs[prev].append(b)

    by_layer: Dict[int, List[str]] = {}
    for k in sizes:
        by_layer.setdefault(depth[k], []).append(k)
    centre: Dict[str, float] = {}
    rows: List[List[str]] = []
    for d in sorted(by_layer):
        ids = by_layer[d]
        desired = {}
        for i, k in enumerate(ids):
            placed = [centre[s] for s in preds[k] if s in centre]
            desired[k] = sum(placed) / len(placed) if placed else i * (MIN_W + GAP_X)
        for chunk in _chunks(sorted(ids, key=lambda k: desired[k]), sizes):
            centre.update(_place_row(chunk, desired, sizes))
            rows.append(chunk)
    # Sources (placed before their readers) move above their readers; then the rest follows.
    for row in reversed(rows):
        desired = {k: _mean([centre[u] for u in succs[k]]) if not preds[k] and succs[k] else centre[k] for k in row}
        row.sort(key=lambda k: desired[k])
        centre.update(_place_row(row, desired, sizes))
    for row in rows:
        desired = {k: _mean([centre[p] for p in preds[k]]) if preds[k] else centre[k] for k in row}
        row.sort(key=lambda k: desired[k])
        centre.update(_place_row(row, desired, sizes))

    left = min((centre[k] - sizes[k][0] / 2 for k in centre), default=0.0)
    boxes: Dict[str, Box] = {}
    lanes: Dict[str, Box] = {}
    y = MARGIN
    for row in rows:
        row_h = max((sizes[k][1] for k in row), default=0.0)
        for k in row:
            w, h, wrapped = sizes[k]
            x = centre[k] - w / 2 - left + MARGIN + WRITE_LANE
            if k.startswith(LANE_PREFIX):
                lanes[k] = Box(x + w / 2, y, 0.0, row_h)
            else:
                boxes[k] = Box(x, y + (row_h - h) / 2, w, h, wrapped)
        y += row_h + GAP_Y
    width = max((b.x + b.w for b in boxes.values()), default=0.0) + MARGIN + WRITE_LANE
    height = y - GAP_Y + MARGIN if rows else 2 * MARGIN
    return Layout(boxes, [[k for k in r if k in boxes] for r in rows], width, height, lanes, routes)


def _mean(values: List[float]) -> float:
    return sum(values) / len(values)


def _chunks(ids: List[str], sizes) -> List[List[str]]:
    out: List[List[str]] = [[]]
    used = 0.0
    for k in ids:
        w = sizes[k][0] + GAP_X
        if out[-1] and used + w > MAX_ROW_W:
            out.append([])
            used = 0.0
        out[-1].append(k)
        used += w
    return out


def _place_row(ids: Sequence[str], desired: Dict[str, float], sizes) -> Dict[str, float]:
    """Centres for ``ids``, kept in this order with GAP_X between boxes, as close to ``desired``
    as possible (least squares: pool-adjacent-violators on the offsets the gaps impose), so a
    box only moves when a neighbour needs its place."""
    offsets, used = [], 0.0
    for k in ids:
        w = sizes[k][0]
        offsets.append(used + w / 2)
        used += w + GAP_X
    blocks: List[List[float]] = []          # [sum of targets, count]
    for k, off in zip(ids, offsets):
        blocks.append([desired[k] - off, 1])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            total, count = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
    shifts = [total / count for total, count in blocks for _ in range(int(count))]
    return {k: shift + off for k, shift, off in zip(ids, shifts, offsets)}
