"""Drawing a laid-out graph, and the legend, as inline SVG.  Colours come from
:mod:`rewrite.explain.style` only."""
from __future__ import annotations

from dataclasses import dataclass
from html import escape
from typing import Dict, List, Optional, Tuple

import rewrite.explain.style as style
from rewrite.explain.collapse import DrawGraph
from rewrite.explain.layout import LINE_H, PAD_Y, Layout

FONT = "DejaVu Sans Mono, Menlo, Consolas, monospace"
BAR_W = 5
WRITE_BEND = 26
LONG_WRITE = 260


@dataclass(frozen=True)
class Look:
    fill: str                    # a key of style.FILLS
    in_place: bool = False
    mark: Optional[str] = None   # "fired" or "rejected"


def graph_svg(graph: DrawGraph, lay: Layout, looks: Dict[str, Look], tips: Dict[str, str], uid: str,
              label: str) -> str:
    """An ``<svg>`` element; ``uid`` keeps its marker ids apart from other pictures' on the page."""
    w, h = int(lay.width + 1), int(lay.height + 1)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="graph" width="{w}" height="{h}" '
           f'viewBox="0 0 {w} {h}" role="img" aria-label="{escape(label)}">',
           "<defs>" + _marker(f"reads-{uid}", style.colour("reads"))
           + _marker(f"writes-{uid}", style.colour("writes")) + "</defs>"]
    boxes = lay.boxes
    reads = style.BY_KEY["reads"]
    for a, b in graph.reads:
        out.append(f'<path class="reads" d="{_smooth(lay.read_points(a, b))}" fill="none" stroke="{reads.colour}" '
                   f'stroke-width="{reads.width}" marker-end="url(#reads-{uid})"/>')
    writes = style.BY_KEY["writes"]
    for i, (a, b) in enumerate(graph.writes):
        out.append(f'<path class="writes" d="{_write_curve(boxes[a], boxes[b], i)}" fill="none" '
                   f'stroke="{writes.colour}" stroke-width="{writes.width}" stroke-dasharray="6 4" '
                   f'marker-end="url(#writes-{uid})"><title>{escape(a)} writes into {escape(b)}</title></path>')
    for node in graph.nodes:
        out.append(_box(node.id, boxes[node.id], looks[node.id], tips.get(node.id, node.id)))
    out.append("</svg>")
    return "\n".join(out)


def _smooth(points: List[Tuple[float, float]]) -> str:
    """A path through ``points`` that leaves and enters every point vertically."""
    (x0, y0), rest = points[0], points[1:]
    d = [f"M{x0:.1f},{y0:.1f}"]
    for x1, y1 in rest:
        if abs(x1 - x0) < 0.5:
            d.append(f"L{x1:.1f},{y1:.1f}")
        else:
            my = (y0 + y1) / 2
            d.append(f"C{x0:.1f},{my:.1f} {x1:.1f},{my:.1f} {x1:.1f},{y1:.1f}")
        x0, y0 = x1, y1
    return " ".join(d)


def _write_curve(src, dst, index: int) -> str:
    """From the in-place op's side to the written node's same side, bending outwards: right when
    the written node lies to the right, else left, so that the curve passes beside the boxes.
    A write across more than LONG_WRITE pixels runs between the rows, out of the op's bottom, up
    the picture's left margin and into the written node's top, crossing edges but no box."""
    if abs(src.cy - dst.cy) > LONG_WRITE:
        gx = 8 + 7 * (index % 4)
        below, above = src.bottom + 10 + 3 * (index % 3), dst.y - 10 - 3 * (index % 3)
        sx, tx = src.x + 12, dst.x + 12
        r = 8.0
        up = -1 if above < below else 1
        return (f"M{sx:.1f},{src.bottom:.1f} V{below:.1f} H{gx + r:.1f} Q{gx:.1f},{below:.1f} {gx:.1f},{below + up * r:.1f} "
                f"V{above - up * r:.1f} Q{gx:.1f},{above:.1f} {gx + r:.1f},{above:.1f} H{tx:.1f} V{dst.y:.1f}")
    bend = WRITE_BEND + min(14.0, abs(src.cy - dst.cy) / 40)
    ty = dst.cy + 6 * (index % 3 - 1) * (dst.h > 30)      # several writes into one box stay apart
    if dst.cx > src.cx + 1:
        sx, tx = src.x + src.w, dst.x + dst.w
        cx = max(sx, tx) + bend
    else:
        sx, tx = src.x, dst.x
        cx = min(sx, tx) - bend
    return f"M{sx:.1f},{src.cy:.1f} C{cx:.1f},{src.cy:.1f} {cx:.1f},{ty:.1f} {tx:.1f},{ty:.1f}"


def _marker(marker_id: str, colour: str) -> str:
    return (f'<marker id="{marker_id}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" '
            f'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>')


def _box(node_id: str, box, look: Look, tip: str) -> str:
    fill = style.BY_KEY[look.fill]
    if look.mark:
        mark = style.BY_KEY[look.mark]
        stroke, width, dashed = mark.colour, mark.width, mark.dashed
    else:
        stroke, width, dashed = style.BORDER, 1.0, fill.dashed
    dash = ' stroke-dasharray="5 3"' if dashed else ""
    parts = [f'<g class="node {look.fill}" data-node="{escape(node_id)}"><title>{escape(tip)}</title>',
             f'<rect x="{box.x:.1f}" y="{box.y:.1f}" width="{box.w:.1f}" height="{box.h:.1f}" rx="6" '
             f'fill="{fill.colour}" stroke="{stroke}" stroke-width="{width}"{dash}/>']
    if look.in_place:
        parts.append(f'<rect class="in-place" x="{box.x + 1.5:.1f}" y="{box.y + 3:.1f}" width="{BAR_W}" '
                     f'height="{box.h - 6:.1f}" rx="2" fill="{style.colour("in_place")}"/>')
    for i, (role, text) in enumerate(box.lines):
        y = box.y + PAD_Y + LINE_H * i + 11.5
        weight = ' font-weight="bold"' if role == "name" else ""
        size, colour = ("11", style.TEXT_SOFT) if role == "value" else ("12", style.TEXT)
        parts.append(f'<text x="{box.cx:.1f}" y="{y:.1f}" text-anchor="middle" font-family="{FONT}" '
                     f'font-size="{size}" fill="{colour}"{weight} xml:space="preserve">{escape(text)}</text>')
    parts.append("</g>")
    return "".join(parts)


# --------------------------------------------------------------------------- legend


def legend_html() -> str:
    """One entry per colour of :mod:`rewrite.explain.style`: a small picture and what it means."""
    items: List[str] = []
    for s in style.ALL:
        items.append(f'<li data-key="{s.key}">{_swatch(s)}<span>{escape(s.label)}</span></li>')
    return '<ul class="legend">' + "".join(items) + "</ul>"


def _swatch(s: style.Swatch) -> str:
    head = '<svg xmlns="http://www.w3.org/2000/svg" class="swatch" width="40" height="20" viewBox="0 0 40 20">'
    dash = ' stroke-dasharray="5 3"' if s.dashed else ""
    if s.shape == "box":
        body = (f'<rect x="2" y="2" width="36" height="16" rx="4" fill="{s.colour}" stroke="{style.BORDER}" '
                f'stroke-width="1"{dash}/>')
    elif s.shape == "border":
        body = (f'<rect x="3" y="3" width="34" height="14" rx="4" fill="{style.colour("op")}" stroke="{s.colour}" '
                f'stroke-width="{s.width}"{dash}/>')
    elif s.shape == "bar":
        body = (f'<rect x="2" y="2" width="36" height="16" rx="4" fill="{style.colour("op")}" stroke="{style.BORDER}" '
                f'stroke-width="1"/><rect x="3.5" y="4" width="{BAR_W}" height="12" rx="2" fill="{s.colour}"/>')
    else:
        dash = ' stroke-dasharray="6 4"' if s.dashed else ""
        body = (f'<line x1="2" y1="10" x2="31" y2="10" stroke="{s.colour}" stroke-width="{s.width}"{dash}/>'
                f'<path d="M30,5 L38,10 L30,15 z" fill="{s.colour}"/>')
    return head + body + "</svg>"
