"""The words in and over a node's box: the lines drawn in it and the full text shown on hover."""
from __future__ import annotations

from typing import List, Sequence, Tuple

from rewrite.engine.report import NodeInfo
from rewrite.explain.collapse import DrawNode
from rewrite.explain.diff import writes_of

#: At most this many hidden nodes are listed in a region's hover text.
REGION_TIP_LINES = 40

Line = Tuple[str, str]   # (role: "name" | "op" | "value", text)


def op_text(info: NodeInfo) -> str:
    if info.op == "placeholder":
        return "input"
    if info.op == "call_method":
        return f"Tensor.{info.target}"
    if info.op == "get_attr":
        return f"self.{info.target}"
    return info.target


def node_text(info: NodeInfo) -> str:
    """One line of code for the node: ``copy_: f32[8] = aten.copy_(arg0_1, slice_scatter)``."""
    if info.op == "placeholder":
        return f"{info.name}: {info.value} = input" if info.value else f"{info.name} = input"
    if info.op == "output":
        return f"return ({', '.join(info.inputs)})"
    head = f"{info.name}: {info.value}" if info.value else info.name
    return f"{head} = {op_text(info)}({', '.join(info.inputs)})"


def box_lines(node: DrawNode) -> List[Line]:
    if node.is_region:
        return [("name", f"\u2026 {len(node.hidden)} nodes \u2026"), ("op", node.summary())]
    info = node.info
    lines: List[Line] = [("name", info.name)]
    op = op_text(info)
    if op != info.name:
        lines.append(("op", op))
    if info.value:
        lines.append(("value", info.value))
    return lines


def tooltip(node: DrawNode, notes: Sequence[str] = ()) -> str:
    """The full text: the node's code line, what it writes, and ``notes`` (what the rules did)."""
    if node.is_region:
        shown = [node_text(n) for n in node.hidden[:REGION_TIP_LINES]]
        more = len(node.hidden) - len(shown)
        return "\n".join([f"{len(node.hidden)} nodes collapsed: none of them changed or tried by a rule, "
                          "all far from those that were (open the full graph to see them)"]
                         + shown + ([f"\u2026 and {more} more"] if more > 0 else []))
    lines = [node_text(node.info)]
    written = writes_of(node.info)
    if written:
        lines.append(f"writes into: {', '.join(written)}")
    return "\n".join(lines + list(notes))
