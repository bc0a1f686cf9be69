"""Compile checked rule ASTs into matcher and evaluator closures, once per rule set.

Applying a rule set never looks at the AST again: each pattern becomes a closure that matches a
node and fills bindings, each expression a closure that returns ``(value, explanation)``, so that a
false guard can say exactly which predicate, with which arguments, stopped the rule.
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple

import torch
import torch.fx as fx

from rewrite.analysis import mutation
from rewrite.analysis.graph_facts import GraphFacts, meta_value
from rewrite.analysis.op_names import op_display_name, targets_match
from rewrite.lang import ast

Matcher = Callable[[Any, Dict[str, Any], List[str]], bool]
Evaluator = Callable[["Context"], Tuple[Any, str]]  # noqa: F821


class EvalError(Exception):
    """A rule asked for something the graph cannot answer (bad index, missing binding)."""


# --------------------------------------------------------------------------- rendering


def render(value) -> str:
    if isinstance(value, fx.Node):
        return value.name
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(render(v) for v in value) + "]"
    if isinstance(value, PathValue):
        return "path(" + " -> ".join(n.name for n in [value.source, *value.steps]) + ")"
    return repr(value)


@dataclass
class PathValue:
    source: fx.Node
    steps: List[fx.Node] = field(default_factory=list)

    @property
    def last(self) -> fx.Node:
        return self.steps[-1] if self.steps else self.source


# --------------------------------------------------------------------------- argument normalization


def normalized_args(node: fx.Node) -> Tuple[List[Tuple[str, Any]], bool]:
    """``[(name, value), ...]`` for every argument of the call (defaults filled in from the
    schema, None for a missing one), and whether the list came from a schema."""
    bound = mutation.bound_arguments(node)
    if bound is None:
        return [(str(i), a) for i, a in enumerate(node.args)] + list(node.kwargs.items()), False
    return [(name, None if value is mutation.MISSING else value) for name, value in bound], True


def _is_default(node: fx.Node, index: int, value) -> bool:
    schema = mutation.schema_of(node.target)
    if schema is None or index >= len(schema.arguments):
        return False
    arg = schema.arguments[index]
    return arg.has_default_value() and arg.default_value == value


# --------------------------------------------------------------------------- patterns


def compile_pattern(p, resolve) -> Matcher:
    if isinstance(p, ast.Wildcard):
        return lambda v, b, why: True
    if isinstance(p, ast.KindPattern):
        return _kind_matcher(p.kind)
    if isinstance(p, ast.LiteralPattern):
        want = p.value

        def lit(v, b, why):
            if want is None or isinstance(want, bool):
                ok = v is want
            else:
                ok = not isinstance(v, (fx.Node, bool)) and v == want
            if not ok:
                why.append(f"expected {want!r}, got {render(v)}")
            return ok

        return lit
    if isinstance(p, ast.ListPattern):
        items = [compile_pattern(i, resolve) for i in p.items]

        def lst(v, b, why):
            if not isinstance(v, (list, tuple)) or len(v) != len(items):
                why.append(f"expected a list of {len(items)}, got {render(v)}")
                return False
            return all(m(x, b, why) for m, x in zip(items, v))

        return lst
    if isinstance(p, ast.Bind):
        inner = compile_pattern(p.pattern, resolve) if p.pattern is not None else None
        name = p.name

        def bind(v, b, why):
            if name in b:
                same = b[name] is v if isinstance(v, fx.Node) else b[name] == v
                if not same:
                    why.append(f"{name} bound to {render(b[name])}, not {render(v)}")
                return same
            if inner is not None and not inner(v, b, why):
                return False
            b[name] = v
            return True

        return bind
    if isinstance(p, ast.OpPattern):
        return _op_matcher(p, resolve)
    raise TypeError(f"unknown pattern {p!r}")


def _kind_matcher(kind: str) -> Matcher:
    def kind_ok(v) -> bool:
        if kind == "any":
            return True
        if kind == "node":
            return isinstance(v, fx.Node)
        if kind == "input":
            return isinstance(v, fx.Node) and v.op == "placeholder"
        if kind == "const":
            return GraphFacts.is_const(v)
        return False

    def m(v, b, why):
        if kind_ok(v):
            return True
        why.append(f"expected {kind}, got {render(v)}")
        return False

    return m


def _op_matcher(p: ast.OpPattern, resolve) -> Matcher:
    targets = frozenset(resolve(p.callee))
    arg_ms = [compile_pattern(a, resolve) for a in p.args]
    kw_ms = [(k.key, compile_pattern(k.pattern, resolve)) for k in p.kwargs]
    rest = p.rest
    name = p.callee.dotted

    def m(v, b, why):
        if not isinstance(v, fx.Node) or v.op != "call_function" or not targets_match(v.target, targets):
            why.append(f"expected {name}, got {render(v)}" + (f" ({op_display_name(v.target)})" if isinstance(v, fx.Node) else ""))
            return False
        args, from_schema = normalized_args(v)
        if len(args) < len(arg_ms):
            why.append(f"{v.name} has {len(args)} arguments, pattern needs {len(arg_ms)}")
            return False
        for i, am in enumerate(arg_ms):
            if not am(args[i][1], b, why):
                why.append(f"argument {i} ({args[i][0]}) of {v.name}")
                return False
        if not rest:
            extra = [i for i in range(len(arg_ms), len(args)) if not _is_default(v, i, args[i][1])] \
                if from_schema else list(range(len(arg_ms), len(v.args)))
            if extra:
                i = extra[0]
                why.append(f"{v.name} has extra argument {args[i][0]}={render(args[i][1])}")
                return False
        named = dict(args) if from_schema else {**{str(i): a for i, a in enumerate(v.args)}, **v.kwargs}
        for key, km in kw_ms:
            if key not in named or not km(named[key], b, why):
                why.append(f"keyword {key} of {v.name}")
                return False
        return True

    return m


# --------------------------------------------------------------------------- expressions


_COMPARE = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
    ">": operator.gt, ">=": operator.ge,
    "is": lambda a, b: a is b if isinstance(a, fx.Node) or isinstance(b, fx.Node) else a == b,
    "is not": lambda a, b: (a is not b) if isinstance(a, fx.Node) or isinstance(b, fx.Node) else a != b,
}


def compile_expr(e, registry) -> Evaluator:
    if isinstance(e, ast.Var):
        name = e.name

        def var(ctx):
            if name not in ctx.bindings:
                raise EvalError(f"{name} is not bound")
            v = ctx.bindings[name]
            return v, render(v)

        return var
    if isinstance(e, ast.Literal):
        return lambda ctx, v=e.value: (v, repr(v))
    if isinstance(e, ast.ListExpr):
        items = [compile_expr(i, registry) for i in e.items]
        return lambda ctx: ([f(ctx)[0] for f in items], "list")
    if isinstance(e, ast.Attr):
        base = compile_expr(e.base, registry)
        attr = e.name

        def get_attr(ctx):
            v, d = base(ctx)
            out = node_attr(v, attr)
            return out, f"{d}.{attr}"

        return get_attr
    if isinstance(e, ast.Index):
        base, index = compile_expr(e.base, registry), compile_expr(e.index, registry)

        def get_item(ctx):
            v, d = base(ctx)
            i, di = index(ctx)
            try:
                out = v[i]
            except (IndexError, KeyError, TypeError):
                out = None
            return out, f"{d}[{di}]"

        return get_item
    if isinstance(e, ast.Call):
        return _compile_call(e, registry)
    if isinstance(e, ast.Compare):
        left, right, op = compile_expr(e.left, registry), compile_expr(e.right, registry), e.op
        fn = _COMPARE[op]

        def cmp(ctx):
            lv, ld = left(ctx)
            rv, rd = right(ctx)
            try:
                out = bool(fn(lv, rv))
            except TypeError:
                out = False
            return out, f"{ld} {op} {rd} is {str(out).lower()} ({render(lv)} vs {render(rv)})"

        return cmp
    if isinstance(e, ast.Not):
        inner = compile_expr(e.operand, registry)

        def neg(ctx):
            v, d = inner(ctx)
            return (not v), d

        return neg
    if isinstance(e, ast.And):
        items = [compile_expr(i, registry) for i in e.items]

        def conj(ctx):
            d = ""
            for f in items:
                v, d = f(ctx)
                if not v:
                    return False, d
            return True, d

        return conj
    if isinstance(e, ast.Or):
        items = [compile_expr(i, registry) for i in e.items]

        def disj(ctx):
            ds = []
            for f in items:
                v, d = f(ctx)
                if v:
                    return True, d
                ds.append(d)
            return False, " and ".join(ds)

        return disj
    raise TypeError(f"unknown expression {e!r}")


def _compile_call(e: ast.Call, registry) -> Evaluator:
    entry = registry.get(e.name)
    if entry is None:
        raise EvalError(f"unknown name {e.name}")
    args = [compile_expr(a, registry) for a in e.args]
    name, impl, kind = e.name, entry.impl, entry.kind

    def call(ctx):
        vals = [a(ctx)[0] for a in args]
        ctx.facts.witness = None
        out = impl(ctx, *vals)
        shown = f"{name}({', '.join(render(v) for v in vals)})"
        if kind == "predicate":
            witness = ctx.facts.witness
            return bool(out), f"{shown} is {str(bool(out)).lower()}" + (f" ({witness})" if witness and out else "")
        return out, shown

    return call


def node_attr(v, attr: str):
    """Attributes rules may read from a node: ``args``, ``kwargs``, ``operand`` (by schema
    argument name), ``mutated`` (the operand the op writes), ``target``, ``name``, ``dtype``,
    ``shape``, ``stride``."""
    if not isinstance(v, fx.Node):
        if isinstance(v, PathValue) and attr in ("source", "last", "steps"):
            return getattr(v, attr)
        raise EvalError(f"{render(v)} has no attribute {attr}")
    if attr == "args":
        return tuple(v.args)
    if attr == "kwargs":
        return dict(v.kwargs)
    if attr == "operand":
        return dict(normalized_args(v)[0]) if v.op == "call_function" else {}
    if attr == "mutated":
        written = mutation.written_operands(v)
        return written[0] if written else None
    if attr == "target":
        return op_display_name(v.target)
    if attr == "name":
        return v.name
    val = meta_value(v)
    if attr == "dtype":
        return val.dtype if val is not None else None
    if attr == "shape":
        return tuple(val.shape) if val is not None else None
    if attr == "stride":
        return tuple(val.stride()) if val is not None else None
    raise EvalError(f"unknown node attribute {attr}")


# --------------------------------------------------------------------------- paths


def compile_path(p: ast.PathClause, resolve, registry):
    allowed = frozenset(resolve(p.allowed))
    cond = compile_expr(p.cond, registry) if p.cond is not None else None

    def follow(ctx) -> Tuple[Optional[PathValue], str]:
        path = PathValue(ctx.bindings[p.source])
        seen = {path.source}
        while True:
            current = path.last
            steps, why = [], []
            for u in current.users:
                if not (u.op == "call_function" and targets_match(u.target, allowed)):
                    why.append(f"{u.name} ({op_display_name(u.target) if u.op == 'call_function' else u.op}) is not in {p.allowed.dotted}")
                    continue
                if cond is not None:
                    saved = dict(ctx.bindings)
                    ctx.bindings.update({p.step: u, "current": current})
                    try:
                        ok, d = cond(ctx)
                    finally:
                        ctx.bindings = saved
                    if not ok:
                        why.append(f"step {u.name}: {d}")
                        continue
                steps.append(u)
            if len(steps) != 1 or steps[0] in seen:
                note = "; ".join(why) if not steps else f"{len(steps)} possible steps from {current.name}"
                break
            seen.add(steps[0])
            path.steps.append(steps[0])
        if p.at_least_one and not path.steps:
            return None, f"path from {path.source.name} has no step ({note or 'no users'})"
        return path, f"path stopped at {path.last.name}" + (f" ({note})" if note else "")

    return follow
