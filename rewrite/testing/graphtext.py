"""Reading a graph back from the readable text a report carries (``GraphModule.print_readable``,
``GraphModule.code`` or ``str(fx.Graph)``), so that explanations can draw it."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Dict, List, Optional

_IDENT = re.compile(r"%?\b([A-Za-z_]\w*)\b")
_DEF = re.compile(r"^(\s*)def forward\(self,?\s*(.*?)\)\s*(->.*)?:\s*$")
_ASSIGN = re.compile(r"^\s*([A-Za-z_][\w\s,]*?)\s*(?::\s*\"([^\"]*)\")?\s*=\s*(.+)$")
_FX_NODE = re.compile(r"^\s*%(\w+)\s*:\s*(?:\"([^\"]*)\"\s*)?(?:\[[^\]]*\]\s*)?=\s*(\w+)\[target=([^\]]+)\](.*)$")
_FX_RETURN = re.compile(r"^\s*return\s+(.*)$")


@dataclass
class GNode:
    name: str
    op: str                       # "aten.add.Tensor", "input", "output", "getitem", ...
    inputs: List[str] = field(default_factory=list)
    meta: str = ""                # the type annotation, e.g. "f32[8]"


@dataclass
class ParsedGraph:
    nodes: List[GNode] = field(default_factory=list)

    def by_name(self) -> Dict[str, GNode]:
        return {n.name: n for n in self.nodes}


def short_op(callee: str) -> str:
    callee = callee.strip()
    for prefix in ("torch.ops.", "torch._ops.", "operator."):
        if callee.startswith(prefix):
            return callee[len(prefix):]
    return callee


def parse_graph_text(text: str) -> ParsedGraph:
    if "= placeholder[target=" in text or re.search(r"^\s*%\w+\s*:", text, re.M):
        return _parse_fx_graph(text)
    return _parse_code(text)


def _strip_annotations(params: str) -> List[str]:
    names = []
    depth, current = 0, ""
    for ch in params + ",":
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            name = current.split(":")[0].split("=")[0].strip()
            if name and name != "self":
                names.append(name)
            current = ""
        else:
            current += ch
    return names


def _refs(expr: str, known: Dict[str, GNode]) -> List[str]:
    expr = re.sub(r"\"[^\"]*\"|'[^']*'", "", expr)
    out: List[str] = []
    for m in _IDENT.finditer(expr):
        name = m.group(1)
        if name in known and name not in out:
            out.append(name)
    return out


def _parse_code(text: str) -> ParsedGraph:
    lines = text.splitlines()
    # The outermost forward (subgraph modules of print_readable are nested deeper).
    defs = [(len(m.group(1)), i, m) for i, line in enumerate(lines) if (m := _DEF.match(line))]
    graph = ParsedGraph()
    if not defs:
        return graph
    indent, start, m = min(defs, key=lambda d: (d[0], d[1]))
    known: Dict[str, GNode] = {}
    for name in _strip_annotations(m.group(2)):
        node = GNode(name, "input")
        graph.nodes.append(node)
        known[name] = node
    for line in lines[start + 1:]:
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break
        code = line.split(";")[0].rstrip()
        stripped = code.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if stripped.startswith("return"):
            node = GNode("output", "output", _refs(stripped[len("return"):], known))
            graph.nodes.append(node)
            break
        am = _ASSIGN.match(code)
        if not am:
            continue
        targets = [t.strip() for t in am.group(1).split(",") if t.strip()]
        rhs = am.group(3)
        if rhs.strip() == "None":
            continue
        call = re.match(r"\s*([\w.]+)\s*\(", rhs)
        if call:
            op = short_op(call.group(1))
        elif re.match(r"\s*\w+\[\d+\]", rhs):
            op = "getitem"
        elif re.match(r"\s*self\.\w+", rhs):
            op = "get_attr"
        else:
            op = rhs.strip()[:30]
        inputs = _refs(rhs, known)
        for t in targets:
            node = GNode(t, op, inputs, am.group(2) or "")
            graph.nodes.append(node)
            known[t] = node
    return graph


def _parse_fx_graph(text: str) -> ParsedGraph:
    graph = ParsedGraph()
    known: Dict[str, GNode] = {}
    for line in text.splitlines():
        m = _FX_NODE.match(line)
        if m:
            name, meta, kind, target, rest = m.groups()
            op = "input" if kind == "placeholder" else short_op(target)
            node = GNode(name, op, [r for r in _refs(rest, known)], meta or "")
            graph.nodes.append(node)
            known[name] = node
            continue
        r = _FX_RETURN.match(line)
        if r:
            graph.nodes.append(GNode("output", "output", _refs(r.group(1), known)))
    return graph


def layers(graph: ParsedGraph) -> Dict[str, int]:
    """Depth of every node: inputs at 0, every other node one below its deepest input, the
    output at the bottom."""
    depth: Dict[str, int] = {}
    for node in graph.nodes:
        if node.op == "input":
            depth[node.name] = 0
        elif node.inputs:
            depth[node.name] = 1 + max(depth.get(i, 0) for i in node.inputs)
        else:
            depth[node.name] = 1
    bottom = 1 + max((d for name, d in depth.items()), default=0)
    for node in graph.nodes:
        if node.op == "output":
            depth[node.name] = bottom
    return depth


def changed_names(before: ParsedGraph, after: ParsedGraph) -> Optional[set]:
    """Names that exist in only one of the two graphs (or with a different op)."""
    a = {n.name: n.op for n in before.nodes}
    b = {n.name: n.op for n in after.nodes}
    return {k for k in set(a) | set(b) if a.get(k) != b.get(k)}


def snapshot_graph(snapshot) -> ParsedGraph:
    """A report's :class:`~rewrite.engine.report.GraphSnapshot` as a drawable graph."""
    if snapshot is None:
        return ParsedGraph()
    kinds = {"placeholder": "input", "output": "output"}
    return ParsedGraph([GNode(n.name, kinds.get(n.op, n.target), list(n.inputs), n.value) for n in snapshot.nodes])
