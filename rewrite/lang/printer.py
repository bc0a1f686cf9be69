"""AST -> text in the canonical layout, and ``rewrite fmt``'s comment-preserving formatting.

Layout (the shipped ``rules/`` files are written in it): one item after another, a blank line
between items except runs of one-line items (``opset``/``include``) that were adjacent; section
keywords of a rule in a column 11 wide (``profitable`` is the longest), of a dependency 8 wide;
``opset`` names of an adjacent run padded so the ``=`` line up; fact keys padded so the op lists
line up.  ``where``/``profitable``/``safe`` conditions longer than 80 columns are broken before
each top-level ``and`` (or ``or``), continuation lines aligned under the condition.

Comments are not in the AST.  :func:`format_source` re-attaches them from a scan of the source:
comment lines between items stay between the same items (runs of blank lines collapse to one);
a comment line inside an item is kept just before the section (or fact group) that follows it;
an end-of-line comment stays at the end of the first line of its section.
"""
from __future__ import annotations

import bisect
import math
from dataclasses import dataclass
from typing import Dict, List, Sequence

from rewrite import stages as S
from rewrite.lang import ast as A
from rewrite.lang.diagnostics import RulesError, line_table
from rewrite.lang.parser import Comment, parse_with_diagnostics, scan, strip_bom
from rewrite.lang.syntax import DEPENDENCY_SECTIONS, RULE_SECTIONS

WIDTH = 80
RULE_KW = max(map(len, RULE_SECTIONS))          # "profitable"
DEP_KW = max(map(len, DEPENDENCY_SECTIONS))     # "mutates", "fallback"


# --------------------------------------------------------------------------- literals, patterns, expressions


def literal(value) -> str:
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            raise ValueError(f"{value!r} has no literal syntax")
        return repr(value)
    if isinstance(value, str):
        escaped = (value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
                   .replace("\t", "\\t").replace("\r", "\\r").replace("\0", "\\0"))
        return f'"{escaped}"'
    raise TypeError(f"not a literal: {value!r}")


def pattern(p: A.Pattern) -> str:
    if isinstance(p, A.Wildcard):
        return "_"
    if isinstance(p, A.KindPattern):
        return p.kind
    if isinstance(p, A.LiteralPattern):
        return literal(p.value)
    if isinstance(p, A.ListPattern):
        return "[" + ", ".join(pattern(i) for i in p.items) + "]"
    if isinstance(p, A.Bind):
        return p.name if p.pattern is None else f"{p.name}: {pattern(p.pattern)}"
    if isinstance(p, A.OpPattern):
        args = [pattern(a) for a in p.args] + (["..."] if p.rest else [])
        args += [f"{k.key}={pattern(k.pattern)}" for k in p.kwargs]
        return f"{p.callee.dotted}({', '.join(args)})"
    raise TypeError(f"not a pattern: {p!r}")


def _prec(e: A.Expr) -> int:
    if isinstance(e, A.Or):
        return 1
    if isinstance(e, A.And):
        return 2
    if isinstance(e, A.Not):
        return 3
    if isinstance(e, A.Compare):
        return 4
    return 5


def _wrap(e: A.Expr, min_prec: int) -> str:
    text = expr(e)
    return f"({text})" if _prec(e) < min_prec else text


def expr(e: A.Expr) -> str:
    if isinstance(e, A.Or):
        return " or ".join(_wrap(i, 2) for i in e.items)
    if isinstance(e, A.And):
        return " and ".join(_wrap(i, 3) for i in e.items)
    if isinstance(e, A.Not):
        return "not " + _wrap(e.operand, 3)
    if isinstance(e, A.Compare):
        return f"{_wrap(e.left, 5)} {e.op} {_wrap(e.right, 5)}"
    if isinstance(e, A.Var):
        return e.name
    if isinstance(e, A.Literal):
        return literal(e.value)
    if isinstance(e, A.ListExpr):
        return "[" + ", ".join(expr(i) for i in e.items) + "]"
    if isinstance(e, (A.Attr, A.Index)):
        base = _wrap(e.base, 5)
        if isinstance(e.base, A.Literal) and isinstance(e.base.value, (int, float)):
            base = f"({base})"  # `1.args` would lex as the number `1.`
        return f"{base}.{e.name}" if isinstance(e, A.Attr) else f"{base}[{expr(e.index)}]"
    if isinstance(e, A.Call):
        return f"{e.name}({', '.join(expr(a) for a in e.args)})"
    raise TypeError(f"not an expression: {e!r}")


def _broken(e: A.Expr, indent: int) -> List[str]:
    """A condition on one line, or broken before each top-level and/or if that is too long."""
    one = expr(e)
    if indent + len(one) <= WIDTH or not isinstance(e, (A.And, A.Or)):
        return [one]
    op, min_prec = ("and", 3) if isinstance(e, A.And) else ("or", 2)
    parts = [_wrap(i, min_prec) for i in e.items]
    return [parts[0]] + [f"{op} {p}" for p in parts[1:]]


# --------------------------------------------------------------------------- items


@dataclass
class Block:
    """One section of a printed item: its keyword (for placing comments) and its lines."""

    keyword: str
    lines: List[str]
    source_line: int = 0


def _section(kw: str, width: int, body: List[str]) -> Block:
    pad = " " * (2 + width + 1)
    lines = [f"  {kw:<{width}} {body[0]}"] + [pad + b for b in body[1:]]
    return Block(kw, lines)


def item_blocks(item: A.Item, opset_width: int = 0) -> List[Block]:
    if isinstance(item, A.Include):
        return [Block("include", [f"include {literal(item.path)}"])]
    if isinstance(item, A.OpSet):
        head = f"opset {item.name:<{opset_width}} = "
        return [Block("opset", _alternatives(head, [m.dotted for m in item.members]))]
    if isinstance(item, A.Facts):
        width = max((len(g.key) for g in item.groups), default=0) + 1
        blocks = [Block("facts", [f"facts {item.name}"])]
        for g in item.groups:
            blocks.append(Block("", _alternatives(f"  {g.key + ':':<{width}} ", [o.dotted for o in g.ops])))
        return blocks
    if isinstance(item, A.Rule):
        return _rule_blocks(item)
    if isinstance(item, A.Dependency):
        return _dependency_blocks(item)
    raise TypeError(f"not an item: {item!r}")


def _alternatives(head: str, names: List[str]) -> List[str]:
    """``head a | b | c`` on one line, or, past the width, continued on lines that start with
    ``|`` under the first name."""
    lines, line = [], head + names[0]
    for name in names[1:]:
        if len(line) + 3 + len(name) > WIDTH:
            lines.append(line)
            line = " " * (len(head) - 2) + "| " + name
        else:
            line += " | " + name
    return lines + [line]


def _rule_blocks(r: A.Rule) -> List[Block]:
    cond_indent = 2 + RULE_KW + 1
    blocks = [Block("rule", [f"rule {r.name}"])]
    if r.stage is not None:
        blocks.append(_section("stage", RULE_KW, [", ".join(r.stage.names)]))
    blocks.append(_section("match", RULE_KW, [f"{r.match.name} = {pattern(r.match.pattern)}"]))
    if r.path is not None:
        blocks.append(_section("path", RULE_KW, _path_lines(r.path, cond_indent)))
    for kw in S.GUARD_SECTIONS:
        cond = getattr(r, kw)
        if cond is not None:
            blocks.append(_section(kw, RULE_KW, _broken(cond, cond_indent)))
    if r.rewrite:
        blocks.append(_section("rewrite", RULE_KW, _rewrite_lines(r.rewrite, cond_indent)))
    if r.priority is not None:
        blocks.append(_section("priority", RULE_KW, [str(r.priority)]))
    return blocks


def rewrite_step(step: A.RewriteStep) -> str:
    if isinstance(step, A.Build):
        args = [expr(a) for a in step.args] + [f"{k.key}={expr(k.value)}" for k in step.kwargs]
        call = f"{step.callee.dotted}({', '.join(args)})"
        return call if step.name is None else f"{step.name} = {call}"
    return expr(step)


def _rewrite_lines(steps, indent: int) -> List[str]:
    """All steps on one line, or one per line (each but the last ending in ``;``)."""
    texts = [rewrite_step(s) for s in steps]
    one = "; ".join(texts)
    if indent + len(one) <= WIDTH:
        return [one]
    return [t + ";" for t in texts[:-1]] + [texts[-1]]


def path_clause(p: A.PathClause) -> str:
    """The path clause on one line (after the ``path`` keyword)."""
    return " ".join(_path_lines(p, -WIDTH * 10)) if p.cond is not None else _path_head(p)


def _path_head(p: A.PathClause) -> str:
    head = f"{p.name} = " if p.name is not None else ""
    allowed = " | ".join(c.dotted for c in p.allowed)
    return head + f"{p.source} {'->+' if p.at_least_one else '->*'} {p.target} through {p.step}: {allowed}"


def _path_lines(p: A.PathClause, indent: int) -> List[str]:
    """The path on one line, or, if too long, its ``when`` condition on the next line, indented
    4 more than the path."""
    head = _path_head(p)
    if p.cond is None:
        return [head]
    when = f"when {expr(p.cond)}"
    if indent + len(head) + 1 + len(when) <= WIDTH:
        return [f"{head} {when}"]
    parts = _broken(p.cond, indent + 4 + len("when "))
    return [head, "    when " + parts[0]] + ["         " + part for part in parts[1:]]


def _dependency_blocks(d: A.Dependency) -> List[Block]:
    m = d.mutates
    stage = [_section("stage", DEP_KW, [", ".join(d.stage.names)])] if d.stage is not None else []
    return [Block("dependency", [f"dependency {d.name}"]), *stage,
            _section("on", DEP_KW, [f"{d.on.name} = {pattern(d.on.pattern)}"]),
            _section("mutates", DEP_KW, [f"{expr(m.target)} when {expr(m.cond)}"]),
            _section("order", DEP_KW, [f"{expr(d.order.first)} {d.order.relation} {expr(d.order.second)}"]),
            _section("via", DEP_KW, [expr(d.via)]),
            *([_section("fallback", DEP_KW, [d.fallback.mode])] if d.fallback is not None else [])]


_ONE_LINE = (A.OpSet, A.Include)


def _opset_widths(items: Sequence[A.Item], adjacent: Sequence[bool]) -> List[int]:
    """Pad width per item: the longest name in its run of adjacent opsets."""
    widths = [0] * len(items)
    i = 0
    while i < len(items):
        j = i + 1
        if isinstance(items[i], A.OpSet):
            while j < len(items) and isinstance(items[j], A.OpSet) and adjacent[j]:
                j += 1
            w = max(len(items[k].name) for k in range(i, j))
            for k in range(i, j):
                widths[k] = w
        i = j
    return widths


def pretty(module: A.Module) -> str:
    """The canonical text of a module (no comments; see :func:`format_source` for those)."""
    items = module.items
    adjacent = [k > 0 and isinstance(items[k], _ONE_LINE) and type(items[k]) is type(items[k - 1])
                for k in range(len(items))]
    widths = _opset_widths(items, adjacent)
    out: List[str] = []
    for k, item in enumerate(items):
        if k and not adjacent[k]:
            out.append("")
        for block in item_blocks(item, widths[k]):
            out.extend(block.lines)
    return "\n".join(out) + "\n" if out else ""


# --------------------------------------------------------------------------- formatting with comments


def format_source(text: str, path: str = "<string>") -> str:
    """``rewrite fmt``: the canonical layout of ``text`` with its comments kept.
    Raises :class:`RulesError` if the text does not parse.  Formatting the result again changes
    nothing: comment lines that cannot stay inside an item (inside a one-line item, or after
    the start of an item's last section) are put between items, where a second pass finds them."""
    text = strip_bom(text)
    module, diags = parse_with_diagnostics(text, path)
    if any(d.is_error for d in diags):
        raise RulesError(diags, {path: text})
    info = scan(text)
    items = module.items
    n_lines = len(line_table(text))
    starts = [it.span.line for it in items]
    ends = [it.span.end_line or it.span.line for it in items]
    comments_by_line: Dict[int, Comment] = {c.line: c for c in info.comments}
    comment_lines = [c.line for c in info.comments]
    keyword_lines = [line for line, _ in info.keyword_lines]

    def trivia(first: int, last: int) -> List[str]:
        """Comment and blank lines first..last (1-based, inclusive), blank runs collapsed."""
        out: List[str] = []
        for n in range(first, last + 1):
            c = comments_by_line.get(n)
            line = c.text.rstrip() if c is not None and c.own_line else ""
            if line or not out or out[-1]:
                out.append(line)
        return out

    def inside(lines: List[int], values: Sequence, k: int) -> Sequence:
        return values[bisect.bisect_left(lines, starts[k]):bisect.bisect_right(lines, ends[k])]

    gaps = [trivia(ends[k - 1] + 1 if k else 1, starts[k] - 1) for k in range(len(items))]
    placed = [_place_comments(item, inside(comment_lines, info.comments, k),
                              inside(keyword_lines, info.keyword_lines, k), starts[k])
              for k, item in enumerate(items)]
    # What separates item k-1 from item k: comments moved out of either, and the gap between them.
    gaps = [(placed[k - 1].after if k else []) + gaps[k] + placed[k].lead for k in range(len(items))]
    adjacent = [k > 0 and not gaps[k] for k in range(len(items))]
    widths = _opset_widths(items, adjacent)
    out: List[str] = []
    for k, item in enumerate(items):
        gap = gaps[k]
        if k == 0:
            while gap and gap[0] == "":
                gap = gap[1:]
        out.extend(gap)
        out.extend(placed[k].lines(item_blocks(item, widths[k])))
    tail = (placed[-1].after if items else []) + (trivia(ends[-1] + 1, n_lines) if items else trivia(1, n_lines))
    while tail and tail[-1] == "":
        tail.pop()
    if not items:
        while tail and tail[0] == "":
            tail.pop(0)
    out.extend(tail)
    return "\n".join(out) + "\n" if out else ""


@dataclass
class _Placed:
    """Where the comments inside one item go: lines before it (``lead``), before a block or at
    the end of a block's first line, and lines after it (``after``), both at column 1."""

    indent: str
    before: Dict[int, List[str]]
    trailing: Dict[int, List[str]]
    lead: List[str]
    after: List[str]

    def lines(self, blocks: List[Block]) -> List[str]:
        out: List[str] = []
        for i, block in enumerate(blocks):
            lines = list(block.lines)
            if i in self.trailing:
                lines[0] += "  " + " ".join(self.trailing[i])
            out.extend((self.indent if i else "") + c for c in self.before.get(i, []))
            out.extend(lines)
        return out


def _place_comments(item: A.Item, comments: Sequence[Comment], keywords, start: int) -> _Placed:
    blocks = item_blocks(item)
    _locate(blocks, item, keywords, start)
    one_line = isinstance(item, _ONE_LINE)
    placed = _Placed("" if one_line else "  ", {}, {}, [], [])
    for c in comments:
        text = c.text.rstrip()
        if c.own_line:
            k = next((i for i, b in enumerate(blocks) if b.source_line > c.line), len(blocks))
            if one_line:
                placed.lead.append(text)
            elif k == len(blocks):
                placed.after.append(text)
            else:
                placed.before.setdefault(k, []).append(text)
        else:
            k = max((i for i, b in enumerate(blocks) if b.source_line <= c.line), default=0)
            placed.trailing.setdefault(k, []).append(text)
    return placed


def _locate(blocks: List[Block], item: A.Item, keywords, start: int) -> None:
    """Set each block's source line: from the section keyword's line (``keywords``: the item's
    (line, word) pairs), or the fact group's span."""
    if isinstance(item, A.Facts):
        blocks[0].source_line = start
        for block, group in zip(blocks[1:], item.groups):
            block.source_line = group.span.line
        return
    for block in blocks:
        block.source_line = next((line for line, word in keywords if word == block.keyword), start)
