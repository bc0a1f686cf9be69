"""Drawing a parsed graph as inline SVG: one row per depth, boxes for nodes, curves for edges.
No external tools: the layout is computed here."""
from __future__ import annotations

from html import escape
from typing import Dict, Iterable, List, Tuple

from rewrite.testing.graphtext import ParsedGraph, layers

BOX_W, BOX_H = 168, 38
GAP_X, GAP_Y = 22, 34
MARGIN = 12
MAX_PER_ROW = 8

FILL = {"input": "#e8f0fe", "output": "#e6f4ea"}
CHANGED_FILL = "#fde7c8"
MUTATION_FILL = "#fce8e6"


def _label(text: str, limit: int = 26) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _positions(graph: ParsedGraph) -> Tuple[Dict[str, Tuple[float, float]], int, int]:
    depth = layers(graph)
    rows: Dict[int, List[str]] = {}
    for node in graph.nodes:
        rows.setdefault(depth[node.name], []).append(node.name)
    # Wrap over-full rows so the picture stays readable.
    wrapped: List[List[str]] = []
    for d in sorted(rows):
        names = rows[d]
        wrapped += [names[i:i + MAX_PER_ROW] for i in range(0, len(names), MAX_PER_ROW)]
    width_boxes = max((len(r) for r in wrapped), default=1)
    width = MARGIN * 2 + width_boxes * BOX_W + (width_boxes - 1) * GAP_X
    pos: Dict[str, Tuple[float, float]] = {}
    for row_index, names in enumerate(wrapped):
        row_w = len(names) * BOX_W + (len(names) - 1) * GAP_X
        x0 = (width - row_w) / 2
        for i, name in enumerate(names):
            pos[name] = (x0 + i * (BOX_W + GAP_X), MARGIN + row_index * (BOX_H + GAP_Y))
    height = MARGIN * 2 + len(wrapped) * BOX_H + max(0, len(wrapped) - 1) * GAP_Y
    return pos, int(width), int(height)


def graph_svg(graph: ParsedGraph, highlight: Iterable[str] = (), title: str = "") -> str:
    """An ``<svg>`` element.  Nodes named in ``highlight`` (what the rules changed) are filled
    orange; in-place ops (``..._``) red."""
    highlight = set(highlight)
    pos, width, height = _positions(graph)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" '
           'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#5f6368"/>'
           '</marker></defs>']
    for node in graph.nodes:
        x2, y2 = pos[node.name]
        for src in node.inputs:
            if src not in pos:
                continue
            x1, y1 = pos[src]
            sx, sy = x1 + BOX_W / 2, y1 + BOX_H
            tx, ty = x2 + BOX_W / 2, y2
            my = (sy + ty) / 2
            out.append(f'<path d="M{sx:.1f},{sy:.1f} C{sx:.1f},{my:.1f} {tx:.1f},{my:.1f} {tx:.1f},{ty:.1f}" '
                       f'fill="none" stroke="#9aa0a6" stroke-width="1.2" marker-end="url(#arrow)"/>')
    for node in graph.nodes:
        x, y = pos[node.name]
        op_base = node.op.split(".")[-2] if node.op.count(".") >= 2 else node.op
        if node.name in highlight:
            fill = CHANGED_FILL
        elif op_base.endswith("_") and not op_base.startswith("_"):
            fill = MUTATION_FILL
        else:
            fill = FILL.get(node.op, "#ffffff")
        tip = f"{node.name} = {node.op}" + (f" : {node.meta}" if node.meta else "")
        out.append(f'<g><title>{escape(tip)}</title>'
                   f'<rect x="{x:.1f}" y="{y:.1f}" width="{BOX_W}" height="{BOX_H}" rx="6" fill="{fill}" '
                   f'stroke="#5f6368" stroke-width="1"/>'
                   f'<text x="{x + BOX_W / 2:.1f}" y="{y + 15:.1f}" text-anchor="middle" font-size="12" '
                   f'font-family="monospace" font-weight="bold">{escape(_label(node.name))}</text>'
                   f'<text x="{x + BOX_W / 2:.1f}" y="{y + 30:.1f}" text-anchor="middle" font-size="11" '
                   f'font-family="monospace" fill="#3c4043">{escape(_label(node.op))}</text></g>')
    out.append("</svg>")
    return "\n".join(out)
