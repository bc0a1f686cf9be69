"""The rule language's syntax as code: its words, the grammar compiled by lark, and the LR loop
that reads one item into :mod:`rewrite.lang.ast`.

``grammar/rules.lark`` is the syntax.  lark compiles it into LALR(1) tables and the terminal
definitions of a contextual lexer; :class:`ItemParser` drives those tables with a lean loop that
matches tokens with the same per-state expressions lark's contextual lexer builds and, at each
reduction, builds the AST node directly, with the span lark's ``propagate_positions`` would give
it (a node runs from the start of its first child to the end of its last, keywords and brackets
included; parentheses around an expression belong to the enclosing node).  Skipping lark's token
objects and parse tree makes a file parse about three times faster than ``Lark.parse``; on an item
the loop rejects, :mod:`rewrite.lang.parser` runs lark's own parser, so every syntax error is
lark's.

Nothing here recurses on the input: the loop is iterative and counts nesting as it reduces, so an
item nested deeper than :data:`MAX_NESTING` is rejected rather than a ``RecursionError`` anywhere
downstream.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Dict, List

from lark import Lark

from rewrite.lang import ast as A
from rewrite.lang.cache import private_cache_dir
from rewrite.lang.diagnostics import Diagnostic, error

# --------------------------------------------------------------------------- the language's words
# The one table of the language's words.  The grammar spells the same words; tests/lang/test_grammar.py
# fails if the two differ (or if docs/language.md lists other ones).

TOP_KEYWORDS = ("include", "opset", "facts", "rule", "dependency")
RULE_SECTIONS = ("stage", "match", "path", "where", "profitable", "safe", "rewrite", "priority")
DEPENDENCY_SECTIONS = ("stage", "on", "mutates", "order", "via", "fallback")
OPERATOR_WORDS = ("through", "when", "after", "before", "and", "or", "not", "is", "True", "False", "None")
KINDS = ("input", "const", "node", "any")
RESERVED = frozenset(TOP_KEYWORDS + RULE_SECTIONS + DEPENDENCY_SECTIONS + OPERATOR_WORDS + KINDS + ("_",))

# Bounds on what a rule may contain (docs/language.md, "Limits").
MAX_NESTING = 64                           # nested calls, lists, patterns, attributes, indexing, not/and/or
INT_MIN, INT_MAX = -2 ** 63, 2 ** 63 - 1    # integer literals are 64-bit, like torch's ints


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
def lark_parser() -> Lark:
    """lark's parser of one item (what :class:`ItemParser` takes its tables from, and what words
    syntax errors); its LALR tables are kept in the user's cache folder when that is private (lark
    validates the file against a hash of the grammar and options, and rebuilds on a mismatch)."""
    folder = private_cache_dir()
    cache = str(folder / "rules-grammar.lark-cache") if folder is not None else False
    return Lark(grammar_text(), start="item", parser="lalr", lexer="contextual",
                propagate_positions=True, maybe_placeholders=True, cache=cache)


# --------------------------------------------------------------------------- the LR loop


class _Tables:
    """What the loop needs from lark, for start symbol ``item``: the LALR table (per state, each
    symbol's next state or reduction), and per state the lexer lark's contextual lexer would use
    there (the terminals the state accepts plus the ignored ones, ordered as lark orders them,
    keywords that a NAME would also match folded into NAME and told apart by value)."""

    def __init__(self, lark: Lark):
        conf = lark.parse_interactive(start="item").parser_state.parse_conf
        self.start, self.end = conf.start_state, conf.end_state
        terminals = {t.name: t for t in lark.terminals}
        self.ignore = frozenset(lark.lexer_conf.ignore)
        self.newline_types = frozenset(n for n, t in terminals.items() if _has_newline(t.pattern.to_regexp()))
        # keywords and punctuation written as strings in the grammar: not children of a tree
        dropped = frozenset(s.name for r in lark.rules for s in r.expansion
                            if getattr(s, "filter_out", False) and not r.options.keep_all_tokens)
        reductions: Dict[object, _Reduction] = {}
        lexers: Dict[frozenset, tuple] = {}
        self.actions: Dict[int, Dict[str, object]] = {}
        self.lexers: Dict[int, tuple] = {}
        for state, row in conf.states.items():
            self.actions[state] = {sym: (arg if isinstance(arg, int) else
                                         reductions.setdefault(arg, _Reduction(arg, dropped)))
                                   for sym, (_action, arg) in row.items()}
            key = frozenset(row)
            if key not in lexers:
                lexers[key] = _state_lexer([terminals[n] for n in key | self.ignore if n in terminals],
                                           lark.options.g_regex_flags)
            self.lexers[state] = lexers[key]


def _has_newline(regexp: str) -> bool:
    """lark's test of whether a terminal may span lines."""
    return "\n" in regexp or "\\n" in regexp or "\\s" in regexp or "[^" in regexp or ("(?s" in regexp and "." in regexp)


def _state_lexer(terminals, flags):
    """``(match, unless)``: one alternation of ``terminals`` in lark's order, and per regexp
    terminal the keywords it also matches (``{word: keyword terminal}``), as lark builds them."""
    strings = [t for t in terminals if t.pattern.type == "str"]
    unless: Dict[str, Dict[str, str]] = {}
    folded = set()
    for t in terminals:
        if t.pattern.type != "re":
            continue
        for s in strings:
            m = re.match(t.pattern.to_regexp(), s.pattern.value, flags)
            if s.priority == t.priority and m and m.group(0) == s.pattern.value:
                if s.pattern.flags:
                    raise ValueError(f"keyword {s.name} has flags; the parser cannot fold it into {t.name}")
                unless.setdefault(t.name, {})[s.pattern.value] = s.name
                folded.add(s.name)
    kept = sorted((t for t in terminals if t.name not in folded),
                  key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
    pattern = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in kept)
    return re.compile(pattern, flags).match, unless


@lru_cache(maxsize=1)
def _tables() -> _Tables:
    return _Tables(lark_parser())


class _Reduction:
    """One grammar rule as the loop reduces it: how many stack entries it takes, the nonterminal
    it makes, and how to build its value from its children (the entries lark would make children
    of its tree: helper lists spliced in, keywords and punctuation left out)."""

    __slots__ = ("size", "origin", "helper", "splice", "dropped", "inline", "unit", "nests", "build")

    def __init__(self, rule, dropped: frozenset):
        self.size = len(rule.expansion)
        self.origin = rule.origin.name
        key = rule.alias or self.origin                 # the tree lark would make: alias, else rule name
        self.helper = self.origin.startswith("_")      # lark's rules for x*, x+: lists, not nodes
        self.splice = any(s.name.startswith("_") for s in rule.expansion)   # has helper lists as children
        keep_all = rule.options.keep_all_tokens
        self.dropped = None if keep_all or not (self.splice or any(s.name in dropped for s in rule.expansion)) \
            else dropped
        self.inline = bool(rule.options.expand1) and not rule.alias     # ``?rule``: one child passes up
        self.unit = self.inline and self.size == 1 and rule.expansion[0].name not in dropped
        self.nests = key in NESTING
        self.build = getattr(ItemParser, "b_" + key, None)
        if self.build is None and not self.inline and not self.helper:
            raise ValueError(f"the parser has no builder for grammar rule {key!r}")


# Nodes that nest: what MAX_NESTING counts (names of grammar rules and aliases).
NESTING = frozenset({"op_pattern", "list_pattern", "bind", "kw_pattern", "call", "list_expr", "attr", "index",
                     "not_expr", "and_expr", "or_expr", "comparison"})

# A stack entry: (symbol, value, line, col, end_line, end_col, nesting).  A token's value is its
# text; a nonterminal's is what its builder made.  Positions are the extent of everything the
# entry was made from (lark's "container" positions): where a parent node starts or ends.
_SYM, _VAL, _LINE, _COL, _END_LINE, _END_COL, _DEPTH = range(7)


class _Reject(Exception):
    """The loop cannot parse the item (lark's parser then says why)."""


class ItemParser:
    """The LR loop, and one builder ``b_<rule>`` per grammar rule (or alias) that makes a node,
    called with the entries of the node's children and its span; a ``?rule`` with one child
    passes the child up instead (as lark's tree would)."""

    def __init__(self, path: str):
        self.path = path
        self.tables = _tables()
        self.diagnostics: List[Diagnostic] = []

    def parse(self, text: str, begin: int, end: int, line: int, col: int):
        """The item in ``text[begin:end]`` (starting at ``line``:``col``), or None if it has a
        syntax error or nests too deep; :attr:`diagnostics` then holds what else it found."""
        self.diagnostics = []
        try:
            return self._run(text, begin, end, line, begin - (col - 1))
        except _Reject:
            return None

    def _run(self, text: str, pos: int, end: int, line: int, line_start: int):
        tables = self.tables
        actions, lexers, ignore, newline_types = tables.actions, tables.lexers, tables.ignore, tables.newline_types
        final, path = tables.end, self.path
        states = [tables.start]
        stack: list = []
        while True:
            if pos < end:       # the next token, with the lexer of the current state
                match, unless = lexers[states[-1]]
                m = match(text, pos, end)
                if m is None:
                    raise _Reject
                sym, value = m.lastgroup, m.group()
                col = pos - line_start + 1
                pos = m.end()
                if sym in newline_types and "\n" in value:
                    first_line = line
                    line += value.count("\n")
                    line_start = m.start() + value.rindex("\n") + 1
                    if sym in ignore:
                        continue
                    entry = (sym, value, first_line, col, line, pos - line_start + 1, 0)
                elif sym in ignore:
                    continue
                else:
                    folded = unless.get(sym)
                    if folded is not None:
                        sym = folded.get(value, sym)
                    entry = (sym, value, line, col, line, col + len(value), 0)
            else:
                sym, entry = "$END", None
            while True:         # reduce as the token says, then shift it
                act = actions[states[-1]].get(sym)
                if act is None:
                    raise _Reject
                if type(act) is int:
                    states.append(act)
                    stack.append(entry)
                    break
                if act.unit:        # ``?a: b``: b's entry stands for a, as it is
                    states.pop()
                    goto = actions[states[-1]][act.origin]
                    states.append(goto)
                    if entry is None and goto == final:
                        return stack[-1][_VAL]
                    continue
                size = act.size
                kids = stack[-size:]
                del stack[-size:]
                del states[-size:]
                first, last = kids[0], kids[-1]
                depth = first[_DEPTH] if size == 1 else max([k[_DEPTH] for k in kids])
                if act.helper:      # a list of x* or x+: its entries, spliced into the parent later
                    value = _spliced(kids)
                    goto = actions[states[-1]][act.origin]
                    states.append(goto)
                    stack.append((act.origin, value, first[_LINE], first[_COL], last[_END_LINE], last[_END_COL],
                                  depth))
                    continue
                if act.splice:
                    kids = _spliced(kids)
                dropped = act.dropped
                children = kids if dropped is None else [k for k in kids if k[_SYM] not in dropped]
                if act.inline and len(children) == 1:
                    value = children[0][_VAL]
                else:
                    value = act.build(self, children, A.Span(path, first[_LINE], first[_COL],
                                                             last[_END_LINE], last[_END_COL]))
                    if act.nests:
                        depth += 1
                        if depth > MAX_NESTING:
                            raise _Reject
                goto = actions[states[-1]][act.origin]
                states.append(goto)
                stack.append((act.origin, value, first[_LINE], first[_COL], last[_END_LINE], last[_END_COL], depth))
                if entry is None and goto == final:
                    return value

    # ---------------------------------------------------------------- helpers for builders
    def span(self, e) -> A.Span:
        """The span of a token entry."""
        return A.Span(self.path, e[_LINE], e[_COL], e[_END_LINE], e[_END_COL])

    def name(self, e, allow_kind: bool = False) -> str:
        value = e[_VAL]
        if value in RESERVED and not (allow_kind and value in KINDS):
            self.diagnostics.append(error(f"'{value}' is a reserved word and cannot be used as a name",
                                          self.span(e)))
        return value

    def number(self, e):
        try:
            return parse_number(e[_VAL])
        except NumberError as exc:
            self.diagnostics.append(error(str(exc), self.span(e), hint=exc.hint))
            return 0

    # ---------------------------------------------------------------- items
    def b_include(self, c, span):
        return A.Include(parse_string(c[0][_VAL]), span)

    def b_opset(self, c, span):
        return A.OpSet(self.name(c[0]), tuple(k[_VAL] for k in c[1:]), span)

    def b_facts(self, c, span):
        return A.Facts(self.name(c[0]), tuple(k[_VAL] for k in c[1:]), span)

    def b_fact_group(self, c, span):
        return A.FactGroup(self.name(c[0], allow_kind=True), tuple(k[_VAL] for k in c[1:]), span)

    def b_rule(self, c, span):
        fields = {k[_SYM][: -len("_sec")]: k[_VAL] for k in c[1:]}
        return A.Rule(self.name(c[0]), span=span, **fields)

    def b_dependency(self, c, span):
        sections = {k[_SYM]: k[_VAL] for k in c[1:]}
        return A.Dependency(self.name(c[0]), sections["on_sec"], sections["mutates_sec"], sections["order_sec"],
                            sections["via_sec"], stage=sections.get("stage_sec"), span=span,
                            fallback=sections.get("fallback_sec"))

    def b_stage_sec(self, c, span):
        return A.StageClause(tuple(k[_VAL] for k in c), span)

    def b_match_sec(self, c, span):
        return A.Match(self.name(c[0]), c[1][_VAL], span)

    b_on_sec = b_match_sec

    def b_path_sec(self, c, span):
        name = self.name(c.pop(0)) if c[1][_SYM] != "ARROW" else None
        source, arrow, target, step, *rest = c
        cond = rest.pop()[_VAL] if rest[-1][_SYM] != "callee" else None
        return A.PathClause(name, self.name(source), arrow[_VAL] == "->+", self.name(target), self.name(step),
                            tuple(k[_VAL] for k in rest), cond, span)

    def b_where_sec(self, c, span):
        return c[0][_VAL]

    b_profitable_sec = b_safe_sec = b_via_sec = b_where_sec

    def b_rewrite_sec(self, c, span):
        return tuple(k[_VAL] for k in c)

    def b_priority_sec(self, c, span):
        value = self.number(c[0])
        if not isinstance(value, int):
            self.diagnostics.append(error(f"priority must be an integer, not {c[0][_VAL]}", self.span(c[0])))
            return None
        return value

    def b_mutates_sec(self, c, span):
        base, index, cond = c
        start, stop = self.span(base), self.span(index)
        target = A.Index(A.Var(self.name(base), start), A.Var(self.name(index), stop),
                         A.Span(self.path, start.line, start.col, stop.end_line, stop.end_col + 1))
        return A.Mutates(target, index[_VAL], cond[_VAL], span)

    def b_order_sec(self, c, span):
        return A.Order(c[0][_VAL], c[1][_VAL], c[2][_VAL], span)

    def b_fallback_sec(self, c, span):
        return A.Fallback(c[0][_VAL], span)

    def b_callee(self, c, span):
        return A.Callee(tuple(k[_VAL] for k in c), span)

    b_op_name = b_callee

    def b_build(self, c, span):
        name = self.name(c.pop(0)) if c[0][_SYM] == "NAME" else None
        positional, kwargs = [], []
        for arg in c[1:]:
            value = arg[_VAL]
            if isinstance(value, A.KwArg):
                kwargs.append(value)
                continue
            if kwargs:
                self.diagnostics.append(error("positional argument after keyword arguments", value.span))
            positional.append(value)
        return A.Build(name, c[0][_VAL], tuple(positional), tuple(kwargs), span)

    def b_kw_arg(self, c, span):
        return A.KwArg(c[0][_VAL], c[1][_VAL], span)

    # ---------------------------------------------------------------- patterns
    def b_op_pattern(self, c, span):
        positional, kwargs, rest = [], [], False
        for arg in c[1:]:
            value = arg[_VAL]
            if isinstance(value, _Rest):
                if rest:
                    self.diagnostics.append(error("'...' may appear only once", value.span))
                rest = True
            elif isinstance(value, A.KwPattern):
                kwargs.append(value)
            else:
                if rest or kwargs:
                    where = "'...'" if rest else "keyword patterns"
                    self.diagnostics.append(error(f"positional pattern after {where}", value.span,
                                                  hint="'...' and keyword patterns come after all positional patterns"))
                positional.append(value)
        return A.OpPattern(c[0][_VAL], tuple(positional), tuple(kwargs), rest, span)

    def b_kw_pattern(self, c, span):
        return A.KwPattern(c[0][_VAL], c[1][_VAL], span)

    def b_rest_pattern(self, c, span):
        return _Rest(span)

    def b_wildcard(self, c, span):
        return A.Wildcard(span)

    def b_kind_pattern(self, c, span):
        return A.KindPattern(c[0][_VAL], span)

    def b_bind(self, c, span):
        return A.Bind(self.name(c[0]), c[1][_VAL] if len(c) > 1 else None, span)

    def b_literal_pattern(self, c, span):
        return A.LiteralPattern(c[0][_VAL], span)

    def b_list_pattern(self, c, span):
        return A.ListPattern(tuple(k[_VAL] for k in c), span)

    def b_literal(self, c, span):
        tok = c[0]
        if tok[_SYM] == "NUMBER":
            return self.number(tok)
        if tok[_SYM] == "STRING":
            return parse_string(tok[_VAL])
        return _CONSTANTS[tok[_VAL]]

    # ---------------------------------------------------------------- expressions
    def b_or_expr(self, c, span):
        return A.Or(tuple(k[_VAL] for k in c), span)

    def b_and_expr(self, c, span):
        return A.And(tuple(k[_VAL] for k in c), span)

    def b_not_expr(self, c, span):
        return A.Not(c[0][_VAL], span)

    def b_comparison(self, c, span):
        return A.Compare(c[1][_VAL], c[0][_VAL], c[2][_VAL], span)

    def b_comp_op(self, c, span):
        return " ".join(k[_VAL] for k in c)

    def b_attr(self, c, span):
        return A.Attr(c[0][_VAL], c[1][_VAL], span)

    def b_index(self, c, span):
        return A.Index(c[0][_VAL], c[1][_VAL], span)

    def b_var(self, c, span):
        return A.Var(self.name(c[0]), span)

    def b_literal_expr(self, c, span):
        return A.Literal(c[0][_VAL], span)

    def b_list_expr(self, c, span):
        return A.ListExpr(tuple(k[_VAL] for k in c), span)

    def b_call(self, c, span):
        return A.Call(self.name(c[0]), tuple(k[_VAL] for k in c[1:]), span)


_CONSTANTS = {"True": True, "False": False, "None": None}


@dataclass(frozen=True)
class _Rest:
    """``...`` in an op pattern, where it is (the pattern records only that it has one)."""

    span: A.Span


def _spliced(kids: list) -> list:
    """Children with the entries of helper lists (lark's ``__x_star_n`` rules) put in their place.
    A helper list that comes first is extended in place (its entry is being replaced), so a list
    of n elements, built one reduction per element, costs O(n)."""
    head = kids[0][_VAL]
    if type(head) is list:
        out, kids = head, kids[1:]
    else:
        out = []
    for k in kids:
        if type(k[_VAL]) is list:     # only helper lists have a list as their value
            out.extend(k[_VAL])
        else:
            out.append(k)
    return out


# --------------------------------------------------------------------------- literals


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

