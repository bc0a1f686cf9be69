"""Text -> :mod:`rewrite.lang.ast`.

The file is first cut into top-level items at their keywords (a cheap scan that skips comments
and strings), and each item is parsed on its own with the LALR grammar in ``grammar/rules.lark``.
A syntax error therefore costs only the item it is in: the other items still parse and are
checked, so one run reports every broken item.  Items are parsed as slices of the file and their
positions shifted by the item's start (one line table per file), so parsing is linear in the file.

Each item first goes to :mod:`rewrite.lang.fastparse`, a hand-written parser several times faster
than lark that accepts exactly what the grammar does (or gives up); the LALR parser parses what it
gives up on and words every syntax error.  The LALR parser is iterative; its tree is measured
(iteratively) before the recursive tree-to-AST step, so nesting deeper than
:data:`~rewrite.lang.limits.MAX_NESTING` is a located error rather than a ``RecursionError``
anywhere downstream.
"""
from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import List, Optional, Tuple

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from rewrite.lang import ast as A
from rewrite.lang import fastparse
from rewrite.lang.diagnostics import Diagnostic, RulesError, error
from rewrite.lang.limits import INT_MAX, INT_MIN, MAX_NESTING
from rewrite.lang.lines import line_table
from rewrite.lang.user_cache import private_cache_dir

TOP_KEYWORDS = ("include", "opset", "facts", "rule", "dependency")
RULE_SECTIONS = ("stage", "match", "path", "where", "profitable", "safe", "rewrite", "priority")
DEPENDENCY_SECTIONS = ("stage", "on", "mutates", "order", "via", "fallback")
OPERATOR_WORDS = ("through", "when", "after", "before", "and", "or", "not", "is", "True", "False", "None")
KINDS = ("input", "const", "node", "any")
RESERVED = frozenset(TOP_KEYWORDS + RULE_SECTIONS + DEPENDENCY_SECTIONS + OPERATOR_WORDS + KINDS + ("_",))


# --------------------------------------------------------------------------- grammar


def grammar_text() -> str:
    """The grammar: ``grammar/`` of the source checkout this module lives in, else the installed
    package data."""
    checkout = Path(__file__).resolve().parents[2] / "grammar" / "rules.lark"
    if checkout.is_file():
        return checkout.read_text(encoding="utf-8")
    try:
        from importlib.resources import files

        return files("rewrite._grammar").joinpath("rules.lark").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError, OSError):
        return checkout.read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def _lark() -> Lark:
    """The parser; its LALR tables are kept in the user's cache folder when that is private (lark
    validates the file against a hash of the grammar and options, and rebuilds on a mismatch)."""
    folder = private_cache_dir()
    cache = str(folder / "rules-grammar.lark-cache") if folder is not None else False
    return Lark(grammar_text(), start=["module", "item"], parser="lalr", lexer="contextual",
                propagate_positions=True, maybe_placeholders=True, cache=cache)


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
        elif kind == "word" and prev != ".":
            if value in TOP_KEYWORDS:
                starts.append(m.start())
            if value in TOP_KEYWORDS or value in RULE_SECTIONS or value in DEPENDENCY_SECTIONS:
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


def parse_with_diagnostics(text: str, path: str = "<string>", fast: bool = True) -> Tuple[A.Module, List[Diagnostic]]:
    """Parse what can be parsed; items with syntax errors are left out and reported.  A byte
    order mark at the start is skipped (positions then count from the character after it).
    Each item goes through :mod:`rewrite.lang.fastparse` first and, where that gives up, through
    the LALR parser (``fast=False``: the LALR parser only)."""
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
    for begin, end in zip(bounds, bounds[1:]):
        line, col = lines.position(begin)
        if fast:
            item = fastparse.parse_item(text, begin, end, line, col, path, RESERVED, parse_number, parse_string)
            if item is not None:
                items.append(item)
                continue
        shift = _Shift(path, line - 1, col - 1)
        chunk = text[begin:end]
        try:
            tree = _lark().parse(chunk, start="item")
        except UnexpectedInput as exc:
            diags.append(_syntax_error(exc, chunk, shift))
            continue
        too_deep = _too_deep(tree)
        if too_deep is not None:
            diags.append(error(f"nesting too deep: more than {MAX_NESTING} levels", shift.span(too_deep),
                               hint=f"calls, lists, patterns, attributes, indexing and not/and/or may nest at "
                                    f"most {MAX_NESTING} deep; split the rule"))
            continue
        builder = _Builder(shift)
        item = builder.item(tree)
        diags.extend(builder.diagnostics)
        if item is not None:
            items.append(item)
    return A.Module(path, tuple(items), A.Span(path, 1, 1)), diags


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


# Tree nodes that nest: what MAX_NESTING counts.
_NESTING = frozenset({"op_pattern", "list_pattern", "bind", "kw_pattern", "call", "list_expr", "attr", "index",
                      "not_expr", "and_expr", "or_expr", "comparison"})


def _too_deep(tree: Tree) -> Optional[Tree]:
    """The first node nested more than MAX_NESTING deep (iteratively: the tree may be deeper
    than Python's recursion limit), or None."""
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if node.data in _NESTING:
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
    "NAME": "a name", "NUMBER": "a number", "STRING": "a string", "KIND": "a kind (input, const, node, any)",
    "ARROW": "'->+' or '->*'", "ORDER_REL": "'after' or 'before'", "CONST_WORD": "True, False or None",
    "$END": "end of input",
}


def _terminal_words(names) -> List[str]:
    lark = _lark()
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
                     hint=_hint(tok, words, exc))
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


def _hint(tok: Token, words: List[str], exc: UnexpectedToken) -> Optional[str]:
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


# --------------------------------------------------------------------------- tree -> AST


_INT = re.compile(r"-?\d+")
_INT_DIGITS = len(str(INT_MAX))


class NumberError(ValueError):
    def __init__(self, message: str, hint: str):
        super().__init__(message)
        self.hint = hint


def _shown_number(text: str) -> str:
    return text if len(text) <= 24 else f"{text[:20]}... ({len(text)} characters)"


def parse_number(text: str):
    """The value of a NUMBER token; :class:`NumberError` for an integer outside the 64-bit range
    or a float that overflows.  Never converts an over-long digit string to an int."""
    if _INT.fullmatch(text):
        digits = text.lstrip("-").lstrip("0") or "0"
        value = None
        if len(digits) <= _INT_DIGITS:
            value = -int(digits) if text.startswith("-") else int(digits)
        if value is None or not INT_MIN <= value <= INT_MAX:
            raise NumberError(f"integer literal out of range: {_shown_number(text)}",
                              f"integers are 64-bit: {INT_MIN} to {INT_MAX}")
        return value
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise NumberError(f"float literal out of range: {_shown_number(text)}",
                          "a float literal must be finite (at most about 1.8e308 in magnitude)")
    return value


_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "0": "\0"}


def parse_string(text: str) -> str:
    body, out, i = text[1:-1], [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(_ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


class _Builder:
    """Builds AST nodes from a lark tree of one item, collecting (not raising) the errors the
    grammar cannot express: reserved names, misplaced ``...``, non-integer priorities."""

    def __init__(self, shift: _Shift):
        self.path = shift.path
        self.shift = shift
        self.diagnostics: List[Diagnostic] = []

    def span(self, node) -> A.Span:
        return self.shift.span(node)

    def number(self, tok: Token):
        try:
            return parse_number(str(tok))
        except NumberError as exc:
            self.diagnostics.append(error(str(exc), self.span(tok), hint=exc.hint))
            return 0

    def name(self, tok: Token, allow_kind: bool = False) -> str:
        value = str(tok)
        if value in RESERVED and not (allow_kind and value in KINDS):
            self.diagnostics.append(error(f"'{value}' is a reserved word and cannot be used as a name",
                                          self.span(tok)))
        return value

    # ---------------------------------------------------------------- items
    def item(self, tree: Tree):
        return getattr(self, "item_" + tree.data)(tree)

    def item_include(self, t: Tree) -> A.Include:
        return A.Include(parse_string(str(t.children[0])), self.span(t))

    def item_opset(self, t: Tree) -> A.OpSet:
        name, *members = t.children
        return A.OpSet(self.name(name), tuple(self.callee(m) for m in members), self.span(t))

    def item_facts(self, t: Tree) -> A.Facts:
        name, *groups = t.children
        built = tuple(A.FactGroup(self.name(g.children[0], allow_kind=True),
                                  tuple(self.callee(c) for c in g.children[1:]), self.span(g)) for g in groups)
        return A.Facts(self.name(name), built, self.span(t))

    def item_rule(self, t: Tree) -> A.Rule:
        name, *sections = t.children
        fields = {}
        for sec in sections:
            kind = sec.data[: -len("_sec")]
            if kind == "stage":
                fields["stage"] = self.stage(sec)
            elif kind == "match":
                fields["match"] = self.match(sec)
            elif kind == "path":
                fields["path"] = self.path_clause(sec)
            elif kind == "rewrite":
                fields["rewrite"] = tuple(self.rewrite_step(c) for c in sec.children)
            elif kind == "priority":
                fields["priority"] = self.priority(sec.children[0])
            else:
                fields[kind] = self.expr(sec.children[0])
        return A.Rule(self.name(name), span=self.span(t), **fields)

    def item_dependency(self, t: Tree) -> A.Dependency:
        name, *sections = t.children
        stage = self.stage(sections.pop(0)) if sections[0].data == "stage_sec" else None
        fallback = None
        if sections[-1].data == "fallback_sec":
            fb = sections.pop()
            fallback = A.Fallback(str(fb.children[0]), self.span(fb))
        on, mutates, order, via = sections
        base, index, cond = mutates.children
        start, end = self.span(base), self.span(index)
        target = A.Index(A.Var(self.name(base), start), A.Var(self.name(index), end),
                         A.Span(self.path, start.line, start.col, end.end_line, end.end_col + 1))
        first, rel, second = order.children
        return A.Dependency(
            self.name(name), self.match(on),
            A.Mutates(target, str(index), self.expr(cond), self.span(mutates)),
            A.Order(self.expr(first), str(rel), self.expr(second), self.span(order)),
            self.call(via.children[0]), stage=stage, span=self.span(t), fallback=fallback)

    def stage(self, t: Tree) -> A.StageClause:
        return A.StageClause(tuple(str(c) for c in t.children), self.span(t))

    def rewrite_step(self, t: Tree):
        if t.data == "call":
            return self.call(t)
        name, op_name, *args = t.children
        positional, kwargs = [], []
        for arg in args:
            if arg is None:
                continue
            if isinstance(arg, Tree) and arg.data == "kw_arg":
                key, value = arg.children
                kwargs.append(A.KwArg(str(key), self.expr(value), self.span(arg)))
            else:
                if kwargs:
                    self.diagnostics.append(error("positional argument after keyword arguments", self.span(arg)))
                positional.append(self.expr(arg))
        return A.Build(self.name(name) if name is not None else None,
                       A.Callee(tuple(str(p) for p in op_name.children), self.span(op_name)),
                       tuple(positional), tuple(kwargs), self.span(t))

    def priority(self, tok: Token) -> Optional[int]:
        value = self.number(tok)
        if not isinstance(value, int):
            self.diagnostics.append(error(f"priority must be an integer, not {tok}", self.span(tok)))
            return None
        return value

    def match(self, t: Tree) -> A.Match:
        name, pattern = t.children
        return A.Match(self.name(name), self.op_pattern(pattern), self.span(t))

    def path_clause(self, t: Tree) -> A.PathClause:
        name, source, arrow, target, step, *rest = t.children
        cond = rest.pop() if rest and (rest[-1] is None or rest[-1].data != "callee") else None
        return A.PathClause(
            self.name(name) if name is not None else None, self.name(source), str(arrow) == "->+",
            self.name(target), self.name(step), tuple(self.callee(c) for c in rest),
            self.expr(cond) if cond is not None else None, self.span(t))

    def callee(self, t: Tree) -> A.Callee:
        return A.Callee(tuple(str(p) for p in t.children), self.span(t))

    # ---------------------------------------------------------------- patterns
    def op_pattern(self, t: Tree) -> A.OpPattern:
        callee, *args = t.children
        positional, kwargs, rest = [], [], False
        for arg in args:
            if arg is None:
                continue
            if isinstance(arg, Tree) and arg.data == "rest_pattern":
                if rest:
                    self.diagnostics.append(error("'...' may appear only once", self.span(arg)))
                rest = True
                continue
            if isinstance(arg, Tree) and arg.data == "kw_pattern":
                key, pat = arg.children
                kwargs.append(A.KwPattern(str(key), self.pattern(pat), self.span(arg)))
                continue
            if rest or kwargs:
                where = "'...'" if rest else "keyword patterns"
                self.diagnostics.append(error(f"positional pattern after {where}", self.span(arg),
                                              hint="'...' and keyword patterns come after all positional patterns"))
            positional.append(self.pattern(arg))
        return A.OpPattern(self.callee(callee), tuple(positional), tuple(kwargs), rest, self.span(t))

    def pattern(self, t) -> A.Pattern:
        kind = t.data
        if kind == "wildcard":
            return A.Wildcard(self.span(t))
        if kind == "kind_pattern":
            return A.KindPattern(str(t.children[0]), self.span(t))
        if kind == "bind":
            name = self.name(t.children[0])
            sub = self.pattern(t.children[1]) if len(t.children) > 1 else None
            return A.Bind(name, sub, self.span(t))
        if kind == "literal_pattern":
            return A.LiteralPattern(self.literal(t.children[0]), self.span(t))
        if kind == "list_pattern":
            return A.ListPattern(tuple(self.pattern(c) for c in t.children if c is not None), self.span(t))
        if kind == "op_pattern":
            return self.op_pattern(t)
        raise AssertionError(kind)

    def literal(self, t: Tree):
        tok = t.children[0]
        if tok.type == "NUMBER":
            return self.number(tok)
        if tok.type == "STRING":
            return parse_string(str(tok))
        return {"True": True, "False": False, "None": None}[str(tok)]

    # ---------------------------------------------------------------- expressions
    def expr(self, t) -> A.Expr:
        kind = t.data
        span = self.span(t)
        if kind == "or_expr":
            return A.Or(tuple(self.expr(c) for c in t.children), span)
        if kind == "and_expr":
            return A.And(tuple(self.expr(c) for c in t.children), span)
        if kind == "not_expr":
            return A.Not(self.expr(t.children[0]), span)
        if kind == "comparison":
            left, op, right = t.children
            return A.Compare(" ".join(str(c) for c in op.children), self.expr(left), self.expr(right), span)
        if kind == "attr":
            return A.Attr(self.expr(t.children[0]), str(t.children[1]), span)
        if kind == "index":
            return A.Index(self.expr(t.children[0]), self.expr(t.children[1]), span)
        if kind == "var":
            return A.Var(self.name(t.children[0]), span)
        if kind == "call":
            return self.call(t)
        if kind == "literal_expr":
            return A.Literal(self.literal(t.children[0]), span)
        if kind == "list_expr":
            return A.ListExpr(tuple(self.expr(c) for c in t.children if c is not None), span)
        raise AssertionError(kind)

    def call(self, t: Tree) -> A.Call:
        name, *args = t.children
        return A.Call(self.name(name), tuple(self.expr(a) for a in args if a is not None), self.span(t))
