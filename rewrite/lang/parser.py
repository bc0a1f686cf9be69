"""Text -> :mod:`rewrite.lang.ast`: the rule language's one parser, for whole files.

The file is first cut into top-level items at their keywords (a cheap scan that skips comments
and strings), and each item is parsed on its own with the grammar's LR loop
(:class:`rewrite.lang.syntax.ItemParser`), so a syntax error costs only the item it is in: the
other items still parse and are checked, and one run reports every broken item.  An item the
loop rejects is parsed again by lark's own parser (same grammar, same tables), whose exception
this module words as a located diagnostic with a hint; an item nested too deep is located with
lark's tree, walked iteratively.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import List, Optional, Tuple

from lark import Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rewrite.lang import ast as A
from rewrite.lang.diagnostics import Diagnostic, RulesError, error, line_table
from rewrite.lang.syntax import (
    DEPENDENCY_SECTIONS, KINDS, MAX_NESTING, NESTING, RESERVED, RULE_SECTIONS, TOP_KEYWORDS, ItemParser, lark_parser,
)

# --------------------------------------------------------------------------- scanning


_SCAN = re.compile(
    r"""(?P<comment>\#[^\n]*)
      | (?P<string>"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)
      | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
      | (?P<dot>\.)
      | (?P<space>\s+)
      | (?P<other>.)""",
    re.VERBOSE,
)


@dataclass(frozen=True)
class Comment:
    line: int
    col: int
    text: str
    own_line: bool  # nothing but whitespace before it on its line


@dataclass(frozen=True)
class Scan:
    comments: Tuple[Comment, ...]
    item_starts: Tuple[int, ...]  # offsets of top-level keywords
    keyword_lines: Tuple[Tuple[int, str], ...]  # (line, word) of every section keyword


_SECTION_WORDS = frozenset(TOP_KEYWORDS + RULE_SECTIONS + DEPENDENCY_SECTIONS)


def scan(text: str) -> Scan:
    """Find comments, top-level item starts and section keywords without parsing.  Keywords are
    reserved, so a keyword word that does not follow a dot always is one."""
    comments: List[Comment] = []
    starts: List[int] = []
    keywords: List[Tuple[int, str]] = []
    line, line_start, prev = 1, 0, ""
    for m in _SCAN.finditer(text):
        kind, value = m.lastgroup, m.group()
        if kind == "comment":
            own = text[line_start:m.start()].strip() == ""
            comments.append(Comment(line, m.start() - line_start + 1, value, own))
        elif kind == "word" and prev != "." and value in _SECTION_WORDS:
            if value in TOP_KEYWORDS:
                starts.append(m.start())
            keywords.append((line, value))
        if kind not in ("space", "comment"):
            prev = value
        newlines = value.count("\n")
        if newlines:
            line += newlines
            line_start = m.start() + value.rindex("\n") + 1
    return Scan(tuple(comments), tuple(starts), tuple(keywords))


def _position(text: str, offset: int) -> Tuple[int, int]:
    """(line, col) of an offset in a short text (an item); whole files use :func:`line_table`."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


BOM = "\ufeff"


def strip_bom(text: str) -> str:
    """A UTF-8 byte order mark at the start of a file is not part of its text."""
    return text[1:] if text.startswith(BOM) else text


# --------------------------------------------------------------------------- entry points


def parse(text: str, path: str = "<string>") -> A.Module:
    """Parse a whole file; raises :class:`RulesError` listing every syntax error."""
    module, diags = parse_with_diagnostics(text, path)
    if any(d.is_error for d in diags):
        raise RulesError(diags, {path: text})
    return module


def parse_with_diagnostics(text: str, path: str = "<string>") -> Tuple[A.Module, List[Diagnostic]]:
    """Parse what can be parsed; items with syntax errors are left out and reported.  A byte
    order mark at the start is skipped (positions then count from the character after it)."""
    text = strip_bom(text)
    lines = line_table(text)
    diags: List[Diagnostic] = []
    starts = scan(text).item_starts
    head_end = starts[0] if starts else len(text)
    stray = _first_code(text, 0, head_end)
    if stray is not None:
        line, col = lines.position(stray)
        diags.append(error(f"unexpected {_describe_text(text, stray)}; expected a top-level item "
                           f"({', '.join(TOP_KEYWORDS)})", A.Span(path, line, col)))
    items: List[A.Item] = []
    bounds = list(starts) + [len(text)]
    items_parser = ItemParser(path)
    for begin, end in zip(bounds, bounds[1:]):
        line, col = lines.position(begin)
        item = items_parser.parse(text, begin, end, line, col)
        if item is None:
            diags.append(_rejected(text, begin, end, line, col, path))
            continue
        diags.extend(items_parser.diagnostics)
        items.append(item)
    return A.Module(path, tuple(items), A.Span(path, 1, 1)), diags


# --------------------------------------------------------------------------- items the LR loop rejects


def _rejected(text: str, begin: int, end: int, line: int, col: int, path: str) -> Diagnostic:
    """The diagnostic for an item the loop rejected, from lark's own parser: its syntax error,
    or where it nests too deep."""
    shift = _Shift(path, line - 1, col - 1)
    chunk = text[begin:end]
    try:
        tree = lark_parser().parse(chunk, start="item")
    except UnexpectedInput as exc:
        return _syntax_error(exc, chunk, shift)
    too_deep = _too_deep(tree)
    if too_deep is not None:
        return error(f"nesting too deep: more than {MAX_NESTING} levels", shift.span(too_deep),
                     hint=f"calls, lists, patterns, attributes, indexing and not/and/or may nest at "
                          f"most {MAX_NESTING} deep; split the rule")
    return error("internal error: the parser could not read this item, though the grammar allows it",
                 A.Span(path, line, col), hint="please report this, with the item")


class _Shift:
    """Moves positions inside an item's text to positions in its file: lines by the item's first
    line, columns on the item's first line by its first column."""

    def __init__(self, path: str, lines: int, cols: int):
        self.path = path
        self.lines = lines
        self.cols = cols

    def at(self, line: int, col: int) -> Tuple[int, int]:
        return line + self.lines, col + (self.cols if line == 1 else 0)

    def span(self, node) -> A.Span:
        if isinstance(node, Token):
            line, col, end_line, end_col = node.line, node.column, node.end_line or node.line, \
                node.end_column or node.column
        else:
            meta = node.meta
            if getattr(meta, "empty", True):
                return A.NO_SPAN
            line, col, end_line, end_col = meta.line, meta.column, meta.end_line, meta.end_column
        return A.Span(self.path, *self.at(line, col), *self.at(end_line, end_col))


def _too_deep(tree: Tree) -> Optional[Tree]:
    """The first node nested more than MAX_NESTING deep (iteratively: the tree may be deeper
    than Python's recursion limit), or None."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if node.data in NESTING:
            depth += 1
            if depth > MAX_NESTING:
                return node
        stack.extend((c, depth) for c in node.children if isinstance(c, Tree))
    return None


def _first_code(text: str, begin: int, end: int) -> Optional[int]:
    for m in _SCAN.finditer(text, begin, end):
        if m.lastgroup not in ("space", "comment"):
            return m.start()
    return None


def _describe_text(text: str, offset: int) -> str:
    m = _SCAN.match(text, offset)
    return quoted(m.group()) if m else "end of input"


# --------------------------------------------------------------------------- syntax errors


_TERMINAL_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "KIND": "a kind (" + ", ".join(KINDS) + ")",
    "ARROW": "'->+' or '->*'", "ORDER_REL": "'after' or 'before'", "CONST_WORD": "True, False or None",
    "$END": "end of input",
}


def _terminal_words(names) -> List[str]:
    lark = lark_parser()
    out = set()
    for name in names:
        if name in _TERMINAL_WORDS:
            out.add(_TERMINAL_WORDS[name])
            continue
        try:
            pattern = lark.get_terminal(name).pattern
        except KeyError:
            out.add(name.lower())
            continue
        out.add(repr(pattern.value) if pattern.type == "str" else name.lower())
    return sorted(out)


def _syntax_error(exc: UnexpectedInput, text: str, shift: _Shift) -> Diagnostic:
    """The diagnostic for a syntax error in one item's ``text``, located in the file."""
    path = shift.path
    if isinstance(exc, UnexpectedToken) and exc.token.type == "$END" or isinstance(exc, UnexpectedEOF):
        expected = exc.expected if isinstance(exc, UnexpectedEOF) else exc.accepts or exc.expected
        stripped = _last_code_end(text)
        line, col = shift.at(*_position(text, stripped))
        words = _terminal_words(expected)
        return error(f"unexpected end of item; expected {_join(words)}", A.Span(path, line, col),
                     hint=_missing_section_hint(words))
    if isinstance(exc, UnexpectedToken):
        tok = exc.token
        expected = exc.accepts or exc.expected
        words = _terminal_words(expected)
        span = A.Span(path, *shift.at(tok.line, tok.column),
                      *shift.at(tok.end_line or tok.line, tok.end_column or tok.column + 1))
        return error(f"unexpected {quoted(str(tok.value))}; expected {_join(words)}", span,
                     hint=_hint(tok, words))
    assert isinstance(exc, UnexpectedCharacters)
    ch = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
    hint = None
    if ch in "\"'":
        hint = "strings end on the line they start"
    elif text.startswith("->", exc.pos_in_stream):
        hint = "a path arrow is '->+' (one or more steps) or '->*' (zero or more)"
    elif ch == BOM:
        hint = "a byte order mark is allowed only at the very start of a file"
    return error(f"unexpected character {ch!r}", A.Span(path, *shift.at(exc.line, exc.column)), hint=hint)


def quoted(value: str, limit: int = 40) -> str:
    """``repr`` of source text for a message, cut to ``limit`` characters."""
    return repr(value) if len(value) <= limit else repr(value[:limit]) + "..."


def _last_code_end(text: str) -> int:
    end = 0
    for m in _SCAN.finditer(text):
        if m.lastgroup not in ("space", "comment"):
            end = m.end()
    return end


def _join(words: List[str]) -> str:
    if len(words) > 8:
        words = words[:8] + ["..."]
    return words[0] if len(words) == 1 else "one of " + ", ".join(words)


def _hint(tok: Token, words: List[str]) -> Optional[str]:
    value = str(tok.value)
    if value == "where" and "'when'" in words:
        return "a path condition is introduced by 'when'; 'where' starts the next section"
    if value in RULE_SECTIONS and any(w.strip("'") in RULE_SECTIONS for w in words):
        return "rule sections go in the order " + ", ".join(RULE_SECTIONS) + ", each at most once"
    if value in RESERVED and "a name" in words:
        return f"'{value}' is a reserved word and cannot be used as a name"
    if "'after' or 'before'" in words:
        return "an order reads 'order FIRST after SECOND' or 'order FIRST before SECOND'"
    if value == "=" and "'=='" in words:
        return "comparison is '=='"
    keywords = [w.strip("'") for w in words if w.startswith("'") and w[1:-1].isidentifier()]
    close = difflib.get_close_matches(value, keywords, n=1, cutoff=0.7)
    if close:
        return f"did you mean '{close[0]}'?"
    return None


def _missing_section_hint(words: List[str]) -> Optional[str]:
    if "'match'" in words:
        return "a rule needs a 'match' section"
    if "'on'" in words:
        return "a dependency needs 'on', 'mutates', 'order' and 'via' sections"
    return None


