"""A hand-written parser for well-formed items: the fast path of :mod:`rewrite.lang.parser`.

The LALR parser (lark, ``grammar/rules.lark``) is the definition of the language and produces
every syntax error message, but it costs several microseconds per token.  This recursive-descent
parser follows the same grammar with the same contextual keywords and produces the same AST with
the same spans (lark's ``propagate_positions``: a node runs from the start of its first child to
the end of its last, keywords and brackets included; parentheses around an expression belong to
the enclosing node, not to the expression).  It gives up -- returns None -- at anything it does
not accept: a syntax error, a reserved word used as a name, ``...`` or keyword patterns out of
place, a number out of range, nesting beyond MAX_NESTING, recursion deeper than it allows
itself.  The LALR parser then parses the item and reports.  So this parser never accepts what
the grammar rejects; tests compare the two on the corpus, random modules and mutated files.
"""
from __future__ import annotations

import re
from typing import List, Optional, Tuple

from rewrite.lang import ast as A
from rewrite.lang.limits import MAX_NESTING

_TOKEN = re.compile(r"""
    (?P<ws>[ \t\f\r\n]+)
  | (?P<comment>\#[^\n]*)
  | (?P<STRING>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<NUMBER>-?(?:\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+|\.\d+(?:[eE][-+]?\d+)?|\d+))
  | (?P<ARROW>->[+*])
  | (?P<WORD>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>\.\.\.|==|!=|<=|>=|[<>=()\[\],:;.|])
  | (?P<bad>.)
""", re.VERBOSE | re.DOTALL)

COMPARISONS = ("==", "!=", "<=", ">=", "<", ">")
KINDS = ("input", "const", "node", "any")
CONSTS = {"True": True, "False": False, "None": None}
RULE_SECTIONS = ("path", "where", "profitable", "safe", "rewrite", "priority")
MAX_RECURSION = MAX_NESTING + 16  # nested expressions/patterns this parser recurses into

Token = Tuple[str, str, int, int, int]  # kind, text, line, column, end column (tokens are on one line)
Pos = Tuple[int, int]


class _GiveUp(Exception):
    pass


def tokens(text: str, begin: int, end: int, line: int, line_start: int) -> Optional[List[Token]]:
    """The tokens of ``text[begin:end]``, positioned in the file (``line`` is the line at
    ``begin``, which starts at offset ``line_start``); None at a character no token starts with."""
    out: List[Token] = []
    append = out.append
    for m in _TOKEN.finditer(text, begin, end):
        kind = m.lastgroup
        if kind == "ws":
            value = m.group()
            if "\n" in value:
                line += value.count("\n")
                line_start = m.start() + value.rindex("\n") + 1
        elif kind == "comment":
            continue
        elif kind == "bad":
            return None
        else:
            value = m.group()
            col = m.start() - line_start + 1
            append((value if kind == "punct" else kind, value, line, col, col + len(value)))
    return out


def parse_item(text: str, begin: int, end: int, line: int, col: int, path: str, reserved, number, string):
    """The item in ``text[begin:end]`` (which starts at ``line``:``col``), or None where the
    LALR parser must decide.  ``reserved``, ``number`` and ``string`` are the parser's reserved
    words, number and string literal readers (``number`` raises ValueError when out of range)."""
    toks = tokens(text, begin, end, line, begin - (col - 1))
    if not toks:
        return None
    try:
        return _Parser(toks, path, reserved, number, string).item()
    except (_GiveUp, ValueError, RecursionError):
        return None


class _Parser:
    def __init__(self, toks: List[Token], path: str, reserved, number, string):
        self.toks = toks
        self.n = len(toks)
        self.i = 0
        self.path = path
        self.reserved = reserved
        self.number = number
        self.string = string
        self.depth = 0

    # ---------------------------------------------------------------- tokens
    def peek(self) -> Optional[Token]:
        return self.toks[self.i] if self.i < self.n else None

    def kind(self) -> Optional[str]:
        return self.toks[self.i][0] if self.i < self.n else None

    def word(self) -> Optional[str]:
        """The next token's text if it is a word."""
        if self.i < self.n and self.toks[self.i][0] == "WORD":
            return self.toks[self.i][1]
        return None

    def take(self, kind: str) -> Token:
        if self.i < self.n and self.toks[self.i][0] == kind:
            self.i += 1
            return self.toks[self.i - 1]
        raise _GiveUp

    def keyword(self, word: str) -> Token:
        if self.i < self.n and self.toks[self.i][0] == "WORD" and self.toks[self.i][1] == word:
            self.i += 1
            return self.toks[self.i - 1]
        raise _GiveUp

    def name(self, allow_kind: bool = False) -> Token:
        """A NAME that the tree builder would accept (not a reserved word)."""
        tok = self.take("WORD")
        if tok[1] in self.reserved and not (allow_kind and tok[1] in KINDS):
            raise _GiveUp
        return tok

    def span(self, start: Pos, end: Pos) -> A.Span:
        return A.Span(self.path, start[0], start[1], end[0], end[1])

    @staticmethod
    def start(tok: Token) -> Pos:
        return tok[2], tok[3]

    @staticmethod
    def end(tok: Token) -> Pos:
        return tok[2], tok[4]

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_RECURSION:
            raise _GiveUp

    # ---------------------------------------------------------------- items
    def item(self):
        head = self.word()
        parse = {"include": self.include, "opset": self.opset, "facts": self.facts, "rule": self.rule,
                 "dependency": self.dependency}.get(head)
        if parse is None:
            raise _GiveUp
        item, _ = parse()
        if self.i != self.n:
            raise _GiveUp
        # Every node the nesting check counts owns one of these tokens (a bare binding at the
        # bottom owns none), so with fewer of them the item cannot nest too deep.
        if sum(1 for t in self.toks if t[1] in _OPENERS) >= MAX_NESTING and _nesting(item) > MAX_NESTING:
            raise _GiveUp
        return item

    def include(self):
        kw = self.keyword("include")
        tok = self.take("STRING")
        return A.Include(self.string(tok[1]), self.span(self.start(kw), self.end(tok))), self.end(tok)

    def callee(self) -> Tuple[A.Callee, Pos]:
        first = self.take("WORD")
        parts, last = [first[1]], first
        while self.kind() == "." and self.i + 1 < self.n and self.toks[self.i + 1][0] == "WORD":
            self.i += 1
            last = self.take("WORD")
            parts.append(last[1])
        end = self.end(last)
        return A.Callee(tuple(parts), self.span(self.start(first), end)), end

    def alternatives(self) -> Tuple[List[A.Callee], Pos]:
        callee, end = self.callee()
        members = [callee]
        while self.kind() == "|":
            self.i += 1
            callee, end = self.callee()
            members.append(callee)
        return members, end

    def opset(self):
        kw = self.keyword("opset")
        name = self.name()
        self.take("=")
        members, end = self.alternatives()
        return A.OpSet(name[1], tuple(members), self.span(self.start(kw), end)), end

    def facts(self):
        kw = self.keyword("facts")
        name = self.name()
        end = self.end(name)
        groups = []
        while self.kind() == "WORD":
            key = self.name(allow_kind=True)
            self.take(":")
            ops, end = self.alternatives()
            groups.append(A.FactGroup(key[1], tuple(ops), self.span(self.start(key), end)))
        return A.Facts(name[1], tuple(groups), self.span(self.start(kw), end)), end

    def match(self, keyword: str) -> Tuple[A.Match, Pos]:
        kw = self.keyword(keyword)
        name = self.name()
        self.take("=")
        pattern, _, end = self.op_pattern()
        return A.Match(name[1], pattern, self.span(self.start(kw), end)), end

    def stage(self) -> Tuple[Optional[A.StageClause], Optional[Pos]]:
        """An optional ``stage NAME, NAME...`` section."""
        if self.word() != "stage":
            return None, None
        kw = self.keyword("stage")
        names = [self.take("WORD")]
        while self.kind() == ",":
            self.i += 1
            names.append(self.take("WORD"))
        end = self.end(names[-1])
        return A.StageClause(tuple(t[1] for t in names), self.span(self.start(kw), end)), end

    def rule(self):
        kw = self.keyword("rule")
        name = self.name()
        fields = {}
        stage, _ = self.stage()
        if stage is not None:
            fields["stage"] = stage
        match, end = self.match("match")
        sections = list(RULE_SECTIONS)
        while True:
            word = self.word()
            if word not in sections:
                break
            sections = sections[sections.index(word) + 1:]
            if word == "path":
                fields["path"], end = self.path_clause()
            elif word == "rewrite":
                self.i += 1
                steps = []
                while True:
                    step, end = self.rewrite_step()
                    steps.append(step)
                    if self.kind() != ";":
                        break
                    semi = self.take(";")
                    end = self.end(semi)
                    if self.kind() != "WORD" or self.word() in RULE_SECTIONS:
                        break
                fields["rewrite"] = tuple(steps)
            elif word == "priority":
                self.i += 1
                tok = self.take("NUMBER")
                value = self.number(tok[1])
                if not isinstance(value, int):
                    raise _GiveUp
                fields["priority"] = value
                end = self.end(tok)
            else:
                self.i += 1
                fields[word], _, end = self.expr()
        return A.Rule(name[1], match, span=self.span(self.start(kw), end), **fields), end

    def rewrite_step(self):
        """An action call, or a result pattern ``[name =] ns.op[.overload](args)``."""
        after = self.toks[self.i + 1][0] if self.i + 1 < self.n else None
        if self.kind() == "WORD" and after == "(":
            call, _, end = self.call()
            return call, end
        first = self.toks[self.i] if self.i < self.n else None
        bound = None
        if self.kind() == "WORD" and after == "=":
            bound = self.name()
            self.take("=")
        op_first = self.take("WORD")
        parts, last = [op_first[1]], op_first
        while self.kind() == "." and self.i + 1 < self.n and self.toks[self.i + 1][0] == "WORD":
            self.i += 1
            last = self.take("WORD")
            parts.append(last[1])
        if len(parts) < 2:
            raise _GiveUp
        callee = A.Callee(tuple(parts), self.span(self.start(op_first), self.end(last)))
        self.take("(")
        args, kwargs = [], []
        while self.kind() != ")":
            nxt = self.toks[self.i + 1][0] if self.i + 1 < self.n else None
            if self.kind() == "WORD" and nxt == "=":
                key = self.name()
                self.take("=")
                value, _, vend = self.expr()
                kwargs.append(A.KwArg(key[1], value, self.span(self.start(key), vend)))
            else:
                if kwargs:
                    raise _GiveUp
                args.append(self.expr()[0])
            if self.kind() != ",":
                break
            self.i += 1
        close = self.take(")")
        end = self.end(close)
        return A.Build(bound[1] if bound is not None else None, callee, tuple(args), tuple(kwargs),
                       self.span(self.start(first), end)), end

    def path_clause(self) -> Tuple[A.PathClause, Pos]:
        kw = self.keyword("path")
        first = self.name()
        name = None
        if self.kind() == "=":
            self.i += 1
            name, source = first[1], self.name()[1]
        else:
            source = first[1]
        arrow = self.take("ARROW")
        target = self.name()
        self.keyword("through")
        step = self.name()
        self.take(":")
        allowed, end = self.alternatives()
        cond = None
        if self.word() == "when":
            self.i += 1
            cond, _, end = self.expr()
        return A.PathClause(name, source, arrow[1] == "->+", target[1], step[1], tuple(allowed), cond,
                            self.span(self.start(kw), end)), end

    def dependency(self):
        kw = self.keyword("dependency")
        name = self.name()
        stage, _ = self.stage()
        on, _ = self.match("on")
        mkw = self.keyword("mutates")
        base = self.name()
        self.take("[")
        index = self.name()
        self.take("]")
        self.keyword("when")
        cond, _, mend = self.expr()
        start, iend = self.start(base), self.end(index)
        target = A.Index(A.Var(base[1], self.span(start, self.end(base))), A.Var(index[1], self.span(self.start(index), iend)),
                         A.Span(self.path, start[0], start[1], iend[0], iend[1] + 1))
        mutates = A.Mutates(target, index[1], cond, self.span(self.start(mkw), mend))
        okw = self.keyword("order")
        first, _, _ = self.expr()
        relation = self.word()
        if relation not in ("after", "before"):
            raise _GiveUp
        self.i += 1
        second, _, oend = self.expr()
        order = A.Order(first, relation, second, self.span(self.start(okw), oend))
        self.keyword("via")
        via, _, end = self.call()
        fallback = None
        if self.word() == "fallback":
            fkw = self.keyword("fallback")
            mode = self.name()
            end = self.end(mode)
            fallback = A.Fallback(mode[1], self.span(self.start(fkw), end))
        return A.Dependency(name[1], on, mutates, order, via, stage, self.span(self.start(kw), end), fallback), end

    # ---------------------------------------------------------------- patterns
    def op_pattern(self) -> Tuple[A.OpPattern, Pos, Pos]:
        self.enter()
        callee, _ = self.callee()
        self.take("(")
        positional, kwargs, rest = [], [], False
        while self.kind() != ")":
            if self.kind() == "...":
                if rest:
                    raise _GiveUp
                self.i += 1
                rest = True
            else:
                word = self.word()
                if word is not None and self.i + 1 < self.n and self.toks[self.i + 1][0] == "=" \
                        and word != "_" and word not in CONSTS:
                    key = self.take("WORD")
                    self.i += 1
                    pattern, _, pend = self.pattern()
                    kwargs.append(A.KwPattern(key[1], pattern, self.span(self.start(key), pend)))
                else:
                    if rest or kwargs:
                        raise _GiveUp
                    pattern, _, _ = self.pattern()
                    positional.append(pattern)
            if self.kind() != ",":
                break
            self.i += 1
        close = self.take(")")
        start = (callee.span.line, callee.span.col)
        self.depth -= 1
        return A.OpPattern(callee, tuple(positional), tuple(kwargs), rest,
                           self.span(start, self.end(close))), start, self.end(close)

    def pattern(self) -> Tuple[A.Pattern, Pos, Pos]:
        tok = self.peek()
        if tok is None:
            raise _GiveUp
        kind, value = tok[0], tok[1]
        if kind == "WORD":
            if value == "_":
                self.i += 1
                return A.Wildcard(self.span(self.start(tok), self.end(tok))), self.start(tok), self.end(tok)
            if value in KINDS:
                self.i += 1
                return A.KindPattern(value, self.span(self.start(tok), self.end(tok))), self.start(tok), self.end(tok)
            if value in CONSTS:
                self.i += 1
                return A.LiteralPattern(CONSTS[value], self.span(self.start(tok), self.end(tok))), \
                    self.start(tok), self.end(tok)
            after = self.toks[self.i + 1][0] if self.i + 1 < self.n else None
            if after in ("(", "."):
                return self.op_pattern()
            name = self.name()
            if after == ":":
                self.i += 1
                self.enter()
                sub, _, end = self.pattern()
                self.depth -= 1
                return A.Bind(name[1], sub, self.span(self.start(name), end)), self.start(name), end
            return A.Bind(name[1], None, self.span(self.start(name), self.end(name))), self.start(name), self.end(name)
        if kind == "NUMBER" or kind == "STRING":
            self.i += 1
            value = self.number(value) if kind == "NUMBER" else self.string(value)
            return A.LiteralPattern(value, self.span(self.start(tok), self.end(tok))), self.start(tok), self.end(tok)
        if kind == "[":
            self.enter()
            self.i += 1
            items = []
            while self.kind() != "]":
                item, _, _ = self.pattern()
                items.append(item)
                if self.kind() != ",":
                    break
                self.i += 1
            close = self.take("]")
            self.depth -= 1
            return A.ListPattern(tuple(items), self.span(self.start(tok), self.end(close))), \
                self.start(tok), self.end(close)
        raise _GiveUp

    # ---------------------------------------------------------------- expressions
    # Each returns (node, container start, container end): the container includes parentheses
    # around the expression, which the node's own span does not.
    def expr(self):
        self.enter()
        first = self.and_expr()
        if self.word() != "or":
            self.depth -= 1
            return first
        items = [first]
        while self.word() == "or":
            self.i += 1
            items.append(self.and_expr())
        self.depth -= 1
        return A.Or(tuple(i[0] for i in items), self.span(items[0][1], items[-1][2])), items[0][1], items[-1][2]

    def and_expr(self):
        first = self.not_expr()
        if self.word() != "and":
            return first
        items = [first]
        while self.word() == "and":
            self.i += 1
            items.append(self.not_expr())
        return A.And(tuple(i[0] for i in items), self.span(items[0][1], items[-1][2])), items[0][1], items[-1][2]

    def not_expr(self):
        if self.word() == "not":
            kw = self.take("WORD")
            self.enter()
            operand, _, end = self.not_expr()
            self.depth -= 1
            return A.Not(operand, self.span(self.start(kw), end)), self.start(kw), end
        left = self.postfix()
        kind = self.kind()
        if kind in COMPARISONS:
            self.i += 1
            op = kind
        elif self.word() == "is":
            self.i += 1
            op = "is"
            if self.word() == "not":
                self.i += 1
                op = "is not"
        else:
            return left
        right = self.postfix()
        return A.Compare(op, left[0], right[0], self.span(left[1], right[2])), left[1], right[2]

    def postfix(self):
        node, start, end = self.atom()
        while True:
            kind = self.kind()
            if kind == ".":
                self.i += 1
                name = self.take("WORD")
                end = self.end(name)
                node = A.Attr(node, name[1], self.span(start, end))
            elif kind == "[":
                self.i += 1
                index, _, _ = self.expr()
                end = self.end(self.take("]"))
                node = A.Index(node, index, self.span(start, end))
            else:
                return node, start, end

    def atom(self):
        tok = self.peek()
        if tok is None:
            raise _GiveUp
        kind, value = tok[0], tok[1]
        if kind == "WORD":
            if value in CONSTS:
                self.i += 1
                return A.Literal(CONSTS[value], self.span(self.start(tok), self.end(tok))), self.start(tok), self.end(tok)
            if self.i + 1 < self.n and self.toks[self.i + 1][0] == "(":
                return self.call()
            name = self.name()
            return A.Var(name[1], self.span(self.start(name), self.end(name))), self.start(name), self.end(name)
        if kind == "NUMBER" or kind == "STRING":
            self.i += 1
            value = self.number(value) if kind == "NUMBER" else self.string(value)
            return A.Literal(value, self.span(self.start(tok), self.end(tok))), self.start(tok), self.end(tok)
        if kind == "[":
            self.i += 1
            items = self.expr_list("]")
            close = self.take("]")
            return A.ListExpr(items, self.span(self.start(tok), self.end(close))), self.start(tok), self.end(close)
        if kind == "(":
            self.i += 1
            inner, _, _ = self.expr()
            close = self.take(")")
            return inner, self.start(tok), self.end(close)
        raise _GiveUp

    def expr_list(self, close: str) -> Tuple[A.Expr, ...]:
        items = []
        while self.kind() != close:
            items.append(self.expr()[0])
            if self.kind() != ",":
                break
            self.i += 1
        return tuple(items)

    def call(self):
        name = self.name()
        self.take("(")
        args = self.expr_list(")")
        close = self.take(")")
        return A.Call(name[1], args, self.span(self.start(name), self.end(close))), self.start(name), self.end(close)


# --------------------------------------------------------------------------- nesting


_OPENERS = frozenset({"(", "[", ".", ":", "=", "==", "!=", "<", "<=", ">", ">=", "not", "and", "or", "is"})
_COUNTED = (A.OpPattern, A.ListPattern, A.Bind, A.KwPattern, A.Call, A.ListExpr, A.Attr, A.Index, A.Not, A.And,
            A.Or, A.Compare)


def _children(node) -> list:
    if isinstance(node, A.OpPattern):
        return list(node.args) + list(node.kwargs)
    if isinstance(node, (A.ListPattern, A.ListExpr, A.And, A.Or)):
        return list(node.items)
    if isinstance(node, A.Bind):
        return [node.pattern] if node.pattern is not None else []
    if isinstance(node, A.KwPattern):
        return [node.pattern]
    if isinstance(node, A.Call):
        return list(node.args)
    if isinstance(node, A.Build):
        return list(node.args) + [k.value for k in node.kwargs]
    if isinstance(node, A.Attr):
        return [node.base]
    if isinstance(node, A.Index):
        return [node.base, node.index]
    if isinstance(node, A.Not):
        return [node.operand]
    if isinstance(node, A.Compare):
        return [node.left, node.right]
    if isinstance(node, A.Rule):
        return [node.match.pattern] + [c for c in (node.where, node.profitable, node.safe) if c is not None] + \
            list(node.rewrite) + ([node.path.cond] if node.path is not None and node.path.cond is not None else [])
    if isinstance(node, A.Dependency):
        # the mutates target is not an index node in the LALR tree: it does not count
        return [node.on.pattern, node.mutates.cond, node.order.first, node.order.second, node.via]
    return []


def _nesting(item) -> int:
    """How deep the nodes the LALR parser's nesting check counts nest in ``item`` (iteratively)."""
    deepest = 0
    stack = [(item, 0)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, _COUNTED):
            depth += 1
            deepest = max(deepest, depth)
        stack.extend((c, depth) for c in _children(node))
    return deepest
