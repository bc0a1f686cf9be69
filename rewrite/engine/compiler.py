"""Compile checked rule ASTs into matcher and evaluator closures, once per rule set.

Applying a rule set never looks at the AST again: each pattern becomes a closure that matches a
node and fills bindings, each expression a closure that returns ``(value, explanation)``, so that a
false guard can say exactly which predicate, with which arguments, stopped the rule; each rewrite
step a closure that edits the graph through the candidate's transaction.  Every value is checked
against the kind its declaration asks for when it reaches a predicate, function, action or
attribute: a None where a node is needed stops the rule with an error, it never counts as false.
"""
from __future__ import annotations

import operator
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch.fx as fx

from rewrite import vocab as V
from rewrite.analysis.facts import mutation
from rewrite.analysis.graph_facts import GraphFacts
from rewrite.analysis.facts.op_facts import op_display_name, targets_match
from rewrite.analysis.facts.verdict import Verdict
from rewrite.engine.errors import EvalError
from rewrite.engine.context import PathValue
from rewrite.lang import ast
from rewrite.lang.loader import shipped_rules_dir

Matcher = Callable[[Any, Dict[str, Any], List[str]], bool]
Evaluator = Callable[["Context"], Tuple[Any, str]]  # noqa: F821
Step = Callable[["Context"], None]  # noqa: F821


# --------------------------------------------------------------------------- rendering


def render(value) -> str:
    if isinstance(value, fx.Node):
        return value.name
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(render(v) for v in value) + "]"
    if isinstance(value, PathValue):
        return "path(" + value.describe() + ")"
    return repr(value)


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
            if name in b:                       # bound twice: the same value both times
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
            return bool(GraphFacts.is_const(v))
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
    kw_names = frozenset(k for k, _ in kw_ms)
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
        if not rest:   # arguments a keyword pattern names are not extra
            extra = [i for i in range(len(arg_ms), len(args))
                     if args[i][0] not in kw_names and not _is_default(v, i, args[i][1])] \
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


def check_kind(kind: V.Kind, value, what: str) -> None:
    """Stop the rule if ``value`` is not of the declared ``kind``."""
    if kind is V.Node and not isinstance(value, fx.Node):
        raise EvalError(f"{what} is {render(value)}, not a node")
    if kind is V.OptNode and value is not None and not isinstance(value, fx.Node):
        raise EvalError(f"{what} is {render(value)}, not a node or None")
    if kind is V.Path and not isinstance(value, PathValue):
        raise EvalError(f"{what} is {render(value)}, not a path")
    if kind is V.List and not isinstance(value, (list, tuple)):
        raise EvalError(f"{what} is {render(value)}, not a list")


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
        attr = registry.get_attribute(e.name)
        if attr is None:
            raise EvalError(f"unknown attribute {e.name}")

        def get_attr(ctx):
            v, d = base(ctx)
            check_kind(attr.on, v, d)
            return attr.get(ctx, v), f"{d}.{attr.name}"

        return get_attr
    if isinstance(e, ast.Index):
        base, index = compile_expr(e.base, registry), compile_expr(e.index, registry)

        def get_item(ctx):
            v, d = base(ctx)
            i, di = index(ctx)
            try:
                out = v[i]
            except (IndexError, KeyError, TypeError) as exc:
                raise EvalError(f"{d}[{di}] does not exist ({render(v)} has no element {i!r})") from exc
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
            except TypeError as exc:
                raise EvalError(f"cannot compare {render(lv)} {op} {render(rv)}") from exc
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
    call = _checked_call(entry, args)
    name, kind = e.name, entry.kind

    def evaluate(ctx):
        out, vals = call(ctx)
        shown = f"{name}({', '.join(render(v) for v in vals)})"
        if kind == "predicate":
            value = bool(out)
            why = out.why if isinstance(out, Verdict) else ""
            return value, f"{shown} is {str(value).lower()}" + (f" ({why})" if why else "")
        return out, shown

    return evaluate


def _checked_call(entry: V.Entry, args: Sequence[Evaluator]):
    """Evaluate arguments, check each against its declared kind, call the implementation."""
    params = entry.params
    impl = entry.impl

    def call(ctx):
        vals = []
        for param, a in zip(params, args):
            v, d = a(ctx)
            check_kind(param.kind, v, f"{entry.name}'s {param.name} ({d})")
            vals.append(v)
        return impl(ctx, *vals), vals

    return call


# --------------------------------------------------------------------------- paths


def compile_path(p: ast.PathClause, resolve, registry):
    allowed = frozenset(t for c in p.allowed for t in resolve(c))
    allowed_names = " | ".join(c.dotted for c in p.allowed)
    cond = compile_expr(p.cond, registry) if p.cond is not None else None

    def follow(ctx) -> Tuple[Optional[PathValue], str]:
        path = PathValue(ctx.bindings[p.source])
        seen = {path.source}
        note = ""
        while True:
            current = path.last
            steps, why = [], []
            for u in current.users:
                if not (u.op == "call_function" and targets_match(u.target, allowed)):
                    why.append(f"{u.name} ({op_display_name(u.target) if u.op == 'call_function' else u.op}) "
                               f"is not {allowed_names}")
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
                if not steps:
                    note = "; ".join(why) or f"{current.name} has no users"
                elif len(steps) > 1:
                    note = f"{len(steps)} possible steps from {current.name}: {', '.join(s.name for s in steps)}"
                else:
                    note = f"{steps[0].name} was already on the path"
                break
            seen.add(steps[0])
            path.steps.append(steps[0])
        path.note = f"path {p.name or p.target} stopped at {path.last.name}: {note}"
        if p.at_least_one and not path.steps:
            return None, f"path from {path.source.name} has no step ({note})"
        return path, path.note

    return follow


# --------------------------------------------------------------------------- rewrite steps


def compile_action(call: ast.Call, registry) -> Step:
    entry = registry.get(call.name)
    if entry is None or entry.kind != "action":
        raise EvalError(f"{call.name} is not an action")
    checked = _checked_call(entry, [compile_expr(a, registry) for a in call.args])

    def run(ctx):
        checked(ctx)

    run.entry = entry
    return run


def compile_build(build: ast.Build, op, registry) -> Step:
    """A result pattern: evaluate the arguments, build the node, bind its name."""
    args = [compile_expr(a, registry) for a in build.args]
    kwargs = [(k.key, compile_expr(k.value, registry)) for k in build.kwargs]
    name = build.name

    def run(ctx):
        node = ctx.edit.build(op, [a(ctx)[0] for a in args], {k: f(ctx)[0] for k, f in kwargs})
        if name is not None:
            ctx.bindings[name] = node

    run.entry = None
    return run


# --------------------------------------------------------------------------- rules


@dataclass
class CompiledRule:
    name: str
    location: str
    kind: str                                # "rule" or "dependency"
    stages: Tuple[str, ...]
    root_targets: frozenset
    root_name: str
    match: Matcher
    priority: int
    order: int
    path: Optional[Callable] = None
    path_name: Optional[str] = None
    path_target: Optional[str] = None
    guards: List[Tuple[str, Evaluator]] = field(default_factory=list)
    steps: List[Step] = field(default_factory=list)
    untrusted: bool = False                  # some action is Python a user registered
    # dependencies
    mutates: Optional[Tuple[Evaluator, Evaluator, str]] = None
    order_check: Optional[Tuple[Evaluator, str, Evaluator]] = None
    fallback: str = "error"                  # when `via` cannot be applied: "error" or "compiler"
    shipped: bool = False                    # from the shipped rule files (rules/ of the package)


def _compiled_root(item, match: ast.Match, kind: str, order: int, loaded, stages, priority: int = 0) -> CompiledRule:
    """The parts every rule and dependency has: its root pattern, indexed by the root op."""
    return CompiledRule(
        name=item.name, location=location(item.span), kind=kind, stages=stages,
        root_targets=frozenset(loaded.resolve(match.pattern.callee)), root_name=match.name,
        match=compile_pattern(ast.Bind(match.name, match.pattern), loaded.resolve),
        priority=priority, order=order, shipped=_is_shipped(item.span.file),
    )


def _is_shipped(path: str) -> bool:
    try:
        return Path(path).resolve().is_relative_to(shipped_rules_dir().resolve())
    except (OSError, ValueError):
        return False


def location(span: ast.Span) -> str:
    """``file:line`` of a rule, relative to the working directory when it lies below it."""
    path = span.file
    try:
        rel = os.path.relpath(path)
        if not rel.startswith(".."):
            path = rel
    except ValueError:  # another drive on Windows
        pass
    return f"{path}:{span.line}"


def compile_rule(rule: ast.Rule, order: int, loaded, registry, stages) -> CompiledRule:
    cr = _compiled_root(rule, rule.match, "rule", order, loaded, stages, rule.priority or 0)
    if rule.path is not None:
        cr.path = compile_path(rule.path, loaded.resolve, registry)
        cr.path_name, cr.path_target = rule.path.name, rule.path.target
    for section in ("where", "profitable", "safe"):
        expr = getattr(rule, section)
        if expr is not None:
            cr.guards.append((section, compile_expr(expr, registry)))
    for step in rule.rewrite:
        if isinstance(step, ast.Build):
            cr.steps.append(compile_build(step, loaded.build_target(step), registry))
        else:
            cr.steps.append(compile_action(step, registry))
    cr.untrusted = any(s.entry is not None and not s.entry.builtin for s in cr.steps)
    return cr


def compile_dependency(dep: ast.Dependency, order: int, loaded, registry, stages) -> CompiledRule:
    cr = _compiled_root(dep, dep.on, "dependency", order, loaded, stages)
    cr.mutates = (compile_expr(dep.mutates.target.base, registry),
                  compile_expr(dep.mutates.cond, registry), dep.mutates.index_var)
    cr.order_check = (compile_expr(dep.order.first, registry), dep.order.relation,
                      compile_expr(dep.order.second, registry))
    cr.steps = [compile_action(dep.via, registry)]
    cr.untrusted = not cr.steps[0].entry.builtin
    if dep.fallback is not None:
        cr.fallback = dep.fallback.mode
    return cr

