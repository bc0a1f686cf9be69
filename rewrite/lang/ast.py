"""Typed AST of the rule language.

Every node is a frozen dataclass carrying the source ``Span`` it came from.  Spans are excluded
from equality so that ``parse(pretty(parse(src))) == parse(src)`` holds even though the printed
text lays things out differently.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional, Tuple, Union


@dataclass(frozen=True)
class Span:
    file: str
    line: int
    col: int
    end_line: int = 0
    end_col: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}"


NO_SPAN = Span("<generated>", 0, 0)


def _span() -> Span:
    return field(default=NO_SPAN, compare=False, repr=False)


# --------------------------------------------------------------------------- names and literals


@dataclass(frozen=True)
class Callee:
    """A dotted name in call position: an op (``aten.add.Tensor``, ``higher_order.while_loop``)
    or an opset name (``view_scatter``).  Which one it is is decided by the checker."""

    parts: Tuple[str, ...]
    span: Span = _span()

    @property
    def dotted(self) -> str:
        return ".".join(self.parts)


LiteralValue = Union[int, float, str, bool, None]


# --------------------------------------------------------------------------- patterns (match)


@dataclass(frozen=True)
class Wildcard:
    """``_``: any single argument, not bound."""

    span: Span = _span()


@dataclass(frozen=True)
class KindPattern:
    """``input`` (graph input), ``const`` (non-tensor constant), ``node`` (any graph node),
    ``any`` (anything at all)."""

    kind: str
    span: Span = _span()


@dataclass(frozen=True)
class LiteralPattern:
    value: LiteralValue
    span: Span = _span()


@dataclass(frozen=True)
class ListPattern:
    items: Tuple["Pattern", ...]
    span: Span = _span()


@dataclass(frozen=True)
class Bind:
    """``name`` alone binds the argument; ``name: pattern`` binds it and requires ``pattern``."""

    name: str
    pattern: Optional["Pattern"] = None
    span: Span = _span()


@dataclass(frozen=True)
class KwPattern:
    key: str
    pattern: "Pattern"
    span: Span = _span()


@dataclass(frozen=True)
class OpPattern:
    """``callee(args..., key=pattern)``; ``rest`` is true when ``...`` ends the positional list."""

    callee: Callee
    args: Tuple["Pattern", ...] = ()
    kwargs: Tuple[KwPattern, ...] = ()
    rest: bool = False
    span: Span = _span()


Pattern = Union[Wildcard, KindPattern, LiteralPattern, ListPattern, Bind, OpPattern]


@dataclass(frozen=True)
class Match:
    """``match name = op(...)``: the root op pattern, bound to ``name``."""

    name: str
    pattern: OpPattern
    span: Span = _span()


# --------------------------------------------------------------------------- expressions


@dataclass(frozen=True)
class Var:
    name: str
    span: Span = _span()


@dataclass(frozen=True)
class Literal:
    value: LiteralValue
    span: Span = _span()


@dataclass(frozen=True)
class ListExpr:
    items: Tuple["Expr", ...]
    span: Span = _span()


@dataclass(frozen=True)
class Attr:
    """``base.name``: node attributes (``args``, ``kwargs``, ``operand``, ``mutated``, ``dtype``,
    ``shape``, ``target``...)."""

    base: "Expr"
    name: str
    span: Span = _span()


@dataclass(frozen=True)
class Index:
    """``base[index]``: ``u.args[0]``, ``u.kwargs["out"]``, ``captured[i]``."""

    base: "Expr"
    index: "Expr"
    span: Span = _span()


@dataclass(frozen=True)
class Call:
    """A predicate, function or action call: ``copied_back(last, base)``."""

    name: str
    args: Tuple["Expr", ...] = ()
    span: Span = _span()


@dataclass(frozen=True)
class KwArg:
    """``key = value`` in a result pattern."""

    key: str
    value: "Expr"
    span: Span = _span()


@dataclass(frozen=True)
class Build:
    """A result pattern in ``rewrite``: ``[name =] aten.op.overload(args..., key=value)`` builds a
    new node calling the op on bound values, inserted before the matched root node."""

    name: Optional[str]
    callee: Callee
    args: Tuple["Expr", ...] = ()
    kwargs: Tuple[KwArg, ...] = ()
    span: Span = _span()


@dataclass(frozen=True)
class Compare:
    """``left op right`` with op one of ``is``, ``is not``, ``==``, ``!=``, ``<``, ``<=``, ``>``, ``>=``."""

    op: str
    left: "Expr"
    right: "Expr"
    span: Span = _span()


@dataclass(frozen=True)
class Not:
    operand: "Expr"
    span: Span = _span()


@dataclass(frozen=True)
class And:
    items: Tuple["Expr", ...]
    span: Span = _span()


@dataclass(frozen=True)
class Or:
    items: Tuple["Expr", ...]
    span: Span = _span()


Expr = Union[Var, Literal, ListExpr, Attr, Index, Call, Compare, Not, And, Or]


# --------------------------------------------------------------------------- rule pieces


@dataclass(frozen=True)
class PathClause:
    """``path [name =] source ->+ target through step: op | opset ... [when cond]``.

    Follows users of ``source`` transitively, one node per step, only into nodes whose target is
    one of ``allowed`` and for which ``cond`` holds with ``step`` bound to the candidate user and
    ``current`` bound to the node the path stands on.  ``target`` is bound to the last node.
    ``->+`` needs at least one step, ``->*`` allows zero (then ``target`` is ``source``).
    """

    name: Optional[str]
    source: str
    at_least_one: bool
    target: str
    step: str
    allowed: Tuple[Callee, ...]
    cond: Optional[Expr] = None
    span: Span = _span()


@dataclass(frozen=True)
class StageClause:
    """``stage post_grad`` or ``stage forward, backward``: where the rule runs."""

    names: Tuple[str, ...]
    span: Span = _span()


RewriteStep = Union[Call, Build]


@dataclass(frozen=True)
class Rule:
    name: str
    match: Match
    path: Optional[PathClause] = None
    where: Optional[Expr] = None
    profitable: Optional[Expr] = None
    safe: Optional[Expr] = None
    rewrite: Tuple[RewriteStep, ...] = ()
    priority: Optional[int] = None
    stage: Optional[StageClause] = None
    span: Span = _span()


@dataclass(frozen=True)
class Mutates:
    """``mutates captured[i] when cond``: for every index ``i`` of the list ``captured`` for which
    ``cond`` holds, the op mutates ``captured[i]``."""

    target: Index
    index_var: str
    cond: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Order:
    """``order first after second`` (or ``before``): an ordering the rewrite must make explicit."""

    first: Expr
    relation: str
    second: Expr
    span: Span = _span()


@dataclass(frozen=True)
class Dependency:
    name: str
    on: Match
    mutates: Mutates
    order: Order
    via: Call
    stage: Optional[StageClause] = None
    span: Span = _span()
    fallback: Optional["Fallback"] = None


FALLBACKS = ("error", "compiler", "reference")


@dataclass(frozen=True)
class Fallback:
    """``fallback error|compiler|reference``: what happens when a dependency's ``via`` action
    cannot be applied.  ``error`` (the default) stops the compilation; ``compiler`` leaves the op
    as it was, for ops whose mutations the compiler is known to functionalize correctly itself;
    ``reference`` leaves it as it was and compiles the graph with torch's reference pipeline
    (``aot_eager``), for ops that AOTAutograd handles right and Inductor's lowering does not."""

    mode: str
    span: Span = _span()


@dataclass(frozen=True)
class OpSet:
    """``opset name = op | op | other_opset``."""

    name: str
    members: Tuple[Callee, ...]
    span: Span = _span()


@dataclass(frozen=True)
class FactGroup:
    key: str
    ops: Tuple[Callee, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Facts:
    """``facts name`` followed by ``key: op | op`` lines: a table the analyses consult."""

    name: str
    groups: Tuple[FactGroup, ...]
    span: Span = _span()


@dataclass(frozen=True)
class Include:
    path: str
    span: Span = _span()


Item = Union[Include, OpSet, Facts, Rule, Dependency]


@dataclass(frozen=True)
class Module:
    path: str = field(compare=False)
    items: Tuple[Item, ...] = ()
    span: Span = _span()
