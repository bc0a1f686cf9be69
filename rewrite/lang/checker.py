"""Semantic checks over parsed modules: names resolve, every call and attribute fits its
declared kinds, variables are bound before use, rules say where they run and use only what
that stage's graphs can contain, and no rule is dead or silently shadowed by another.

All problems are collected (never raised) as :class:`Diagnostic`; the resolved op sets and fact
tables are returned alongside so the loader does not resolve anything twice.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

from rewrite import stages as S
from rewrite import vocab as V
from rewrite.lang import ast as A
from rewrite.lang import cache
from rewrite.lang.diagnostics import Diagnostic, Suggester, error
from rewrite.lang.ops import (
    HIGHER_ORDER, OPS, OpLookupError, OpRef, argument_names, argument_types, max_positional, overload_schemas,
)
from rewrite.lang.overlaps import find_overlaps
from rewrite.vocab import Registry, default_registry

PATH_ONLY = ("current",)

Ops = Tuple[OpRef, ...]


@dataclass
class CheckResult:
    diagnostics: List[Diagnostic] = field(default_factory=list)
    opsets: Dict[str, Ops] = field(default_factory=dict)
    facts: Dict[str, Dict[str, Ops]] = field(default_factory=dict)
    builds: Dict[int, OpRef] = field(default_factory=dict)      # id(A.Build) -> the overload it calls
    stages: Dict[int, Tuple[str, ...]] = field(default_factory=dict)  # id(rule or dependency) -> its stages
    overlap_comparisons: int = 0  # pattern comparisons the overlap check made

    @property
    def errors(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]

    @property
    def warnings(self) -> List[Diagnostic]:
        return [d for d in self.diagnostics if not d.is_error]


def check(modules: Sequence[A.Module], registry: Optional[Registry] = None) -> CheckResult:
    """Check modules loaded together (names are global across them)."""
    OPS.begin()
    return _Checker(registry or default_registry()).run(modules)


@dataclass(frozen=True)
class Binding:
    """What the checker knows about a bound name."""

    kind: V.Kind
    ops: Optional[Ops] = None        # the ops a node bound to it can be
    span: Optional[A.Span] = None


Scope = Dict[str, Binding]


def kind_of_schema_type(types: Optional[frozenset]) -> V.Kind:
    """The rule-level kind of an op argument of these schema types."""
    if not types or len(types) != 1:
        return V.Any
    t = next(iter(types))
    if t == "Tensor":
        return V.Node
    if t == "Optional[Tensor]":
        return V.OptNode
    if t.startswith("List["):
        return V.List
    if t in ("SymInt", "Optional[SymInt]", "number", "Optional[number]", "Scalar"):
        return V.Any
    return V.Const


class _Checker:
    def __init__(self, registry: Registry):
        self.registry = registry
        self.result = CheckResult()
        self.opset_items: Dict[str, A.OpSet] = {}
        self._resolving: List[str] = []
        self._broken_opsets: Set[str] = set()  # reported once, then silently unresolved
        self._path_only: Tuple[str, ...] = PATH_ONLY  # plus the current rule's path step variable
        self._pattern_ops: Dict[int, Tuple[A.OpPattern, Optional[Ops]]] = {}  # keeps p alive: ids stay unique
        self._stages: Tuple[str, ...] = ()
        self._needs_reported: Set[Tuple[str, str]] = set()
        self._suggest = Suggester()  # bounded "did you mean" for unknown names
        self._not_none: Set[A.Expr] = set()  # `X is not None and ...`: X is a node in what follows

    def report(self, diag: Diagnostic) -> None:
        self.result.diagnostics.append(diag)

    def run(self, modules: Sequence[A.Module]) -> CheckResult:
        items = [item for m in modules for item in m.items]
        self._check_duplicates(items)
        for item in items:
            if isinstance(item, A.OpSet):
                self.opset_items.setdefault(item.name, item)
        for name in self.opset_items:
            self.opset(name)
        for item in items:
            if isinstance(item, A.Facts):
                self._facts(item)
        rules: List[Tuple[A.Rule, Optional[Ops]]] = []
        for item in items:
            if isinstance(item, A.Rule):
                rules.append((item, self._rule(item)))
            elif isinstance(item, A.Dependency):
                self._dependency(item)
        self._overlaps(rules)
        return self.result

    # ---------------------------------------------------------------- names
    def _check_duplicates(self, items) -> None:
        seen: Dict[Tuple[str, str], A.Span] = {}
        for item in items:
            if isinstance(item, A.Include):
                continue
            kind = type(item).__name__.lower()
            kind = {"opset": "opset", "facts": "facts table"}.get(kind, kind)
            key = (kind, item.name)
            if key in seen:
                self.report(error(f"duplicate {kind} '{item.name}'", item.span,
                                  hint=f"first defined at {seen[key]}"))
            else:
                seen[key] = item.span

    def opset(self, name: str) -> Optional[Ops]:
        """Flattened members of an opset, or None if it (or a member) is broken."""
        if name in self.result.opsets or name in self._broken_opsets:
            return self.result.opsets.get(name)
        item = self.opset_items[name]
        if name in self._resolving:
            cycle = self._resolving[self._resolving.index(name):] + [name]
            self._broken_opsets.update(cycle)
            self.report(error(f"opset '{name}' contains itself ({' -> '.join(cycle)})", item.span))
            return None
        self._resolving.append(name)
        members: List[OpRef] = []
        ok = True
        for callee in item.members:
            ops = self.callee(callee)
            if ops is None:
                ok = False
            else:
                members.extend(op for op in ops if op not in members)
        self._resolving.pop()
        if not ok:
            self._broken_opsets.add(name)
            return None
        self.result.opsets[name] = tuple(members)
        return self.result.opsets[name]

    def callee(self, callee: A.Callee) -> Optional[Ops]:
        """An opset name or an op; reports and returns None when it does not resolve."""
        if len(callee.parts) == 1:
            name = callee.parts[0]
            if name in self.opset_items:
                return self.opset(name)
            hint = None
            close = self._suggest.close(name, self.opset_items)
            if close:
                hint = f"did you mean '{close}'?"
            elif name in OPS.op_names("aten"):
                hint = f"ops are written with their namespace: did you mean 'aten.{name}'?"
            self.report(error(f"unknown opset '{name}'", callee.span, hint=hint))
            return None
        try:
            return (OPS.resolve(callee.parts),)
        except OpLookupError as exc:
            self.report(error(exc.message, callee.span, hint=exc.hint))
            return None

    def callees(self, callees: Sequence[A.Callee]) -> Optional[Ops]:
        out: List[OpRef] = []
        ok = True
        for c in callees:
            ops = self.callee(c)
            if ops is None:
                ok = False
            else:
                out.extend(op for op in ops if op not in out)
        return tuple(out) if ok else None

    # ---------------------------------------------------------------- facts
    def _facts(self, facts: A.Facts) -> None:
        declared = self.registry.get_fact_table(facts.name)
        if declared is None:
            names = [t.name for t in self.registry.fact_tables()]
            close = self._suggest.close(facts.name, names)
            self.report(error(f"unknown fact table '{facts.name}'", facts.span,
                              hint=f"did you mean '{close}'?" if close else
                              f"fact tables are declared from Python; known: {', '.join(names)}"))
        table: Dict[str, Ops] = {}
        for group in facts.groups:
            if declared is not None and group.key not in declared.keys:
                close = self._suggest.close(group.key, declared.keys)
                hint = f"did you mean '{close}'?" if close else \
                    f"keys of {facts.name} are {', '.join(declared.keys)}"
                self.report(error(f"unknown {facts.name} key '{group.key}'", group.span, hint=hint))
            if group.key in table:
                self.report(error(f"duplicate fact key '{group.key}' in '{facts.name}'", group.span))
            ops: List[OpRef] = list(table.get(group.key, ()))
            for callee in group.ops:
                ops.extend(self.callee(callee) or ())
            table[group.key] = tuple(ops)
        if facts.name not in self.result.facts:
            self.result.facts[facts.name] = table

    # ---------------------------------------------------------------- stages
    def _stage_clause(self, clause: Optional[A.StageClause], kind: str, span: A.Span) -> Tuple[str, ...]:
        names = clause.names if clause is not None else S.DEFAULT_STAGE[kind]
        known = S.stage_names()
        ok = []
        for name in names:
            if name in known:
                ok.append(name)
            else:
                close = self._suggest.close(name, known)
                self.report(error(f"unknown stage '{name}'", clause.span if clause else span,
                                  hint=f"did you mean '{close}'?" if close else f"stages: {', '.join(known)}"))
        return S.expand(ok)

    def _root_at_stages(self, pattern: A.OpPattern, ops: Optional[Ops]) -> None:
        """A root op that cannot occur in the graphs of the rule's stages makes it dead."""
        if not ops or not self._stages:
            return
        graphs = {S.STAGES[s].graph for s in self._stages}
        if graphs == {"torch"} and all(op.namespace != HIGHER_ORDER for op in ops):
            self.report(error(f"'{pattern.callee.dotted}' never occurs in Dynamo graphs, so this rule can never "
                              f"fire at stage 'dynamo'", pattern.callee.span,
                              hint="Dynamo graphs hold torch functions and higher-order ops; ATen ops appear "
                                   "from stage 'joint' on"))

    def _usable_here(self, entry: V.Entry, span: A.Span) -> None:
        if entry.stages is None:
            return
        outside = [s for s in self._stages if s not in entry.stages]
        if outside:
            self.report(error(f"'{entry.name}' cannot be used at stage '{outside[0]}'", span,
                              hint=f"'{entry.name}' works at {', '.join(entry.stages)}"))

    def _unchecked_stages(self) -> List[str]:
        """The rule's stages whose graphs the legality check cannot read (Dynamo's torch-level
        graphs: it reads ATen)."""
        return [s for s in self._stages if S.STAGES[s].graph != "aten"]

    def _checked_here(self, entry: V.Entry, span: A.Span) -> None:
        """On a graph the legality check cannot read, only the built-in actions that declare
        that stage run (the dependency actions, whose result the engine checks against their
        contract): anything else would change the program unchecked."""
        unchecked = self._unchecked_stages()
        if unchecked and not (entry.builtin and entry.stages is not None):
            self.report(error(f"'{entry.name}' cannot be used at stage '{unchecked[0]}': the legality check reads "
                              f"ATen graphs, so nothing would check what it does to a Dynamo graph", span,
                              hint="run the rule at a post-grad stage (the default), or use a dependency "
                                   "action (thread_as_carried, return_from_branches)"))

    def _needs(self, entry: V.Entry, span: A.Span) -> None:
        for table in entry.needs:
            if table not in self.result.facts and (entry.name, table) not in self._needs_reported:
                self._needs_reported.add((entry.name, table))
                self.report(error(f"'{entry.name}' needs the fact table '{table}', which no loaded file defines",
                                  span, hint=f"define 'facts {table}' or include a file that does "
                                             f"(the shipped rules have one)"))

    # ---------------------------------------------------------------- patterns
    def pattern(self, p: A.Pattern, scope: Scope, kind: V.Kind = V.Any) -> None:
        """Resolve ops in ``p``, check arities, and bind its names (a name bound twice must be
        the same value)."""
        if isinstance(p, A.Bind):
            inner = p.pattern
            if isinstance(inner, A.OpPattern):
                bound = Binding(V.Node, self.pattern_ops(inner), p.span)
            elif isinstance(inner, A.KindPattern):
                bound = Binding({"input": V.Node, "node": V.Node, "const": V.Const}.get(inner.kind, V.Any), None, p.span)
            elif isinstance(inner, A.ListPattern):
                bound = Binding(V.List, None, p.span)
            elif isinstance(inner, A.LiteralPattern):
                bound = Binding(V.Const, None, p.span)
            else:
                bound = Binding(kind, None, p.span)
            if p.name not in scope:
                scope[p.name] = bound
            if inner is not None:
                self.pattern(inner, scope, kind)
        elif isinstance(p, A.ListPattern):
            for item in p.items:
                self.pattern(item, scope)
        elif isinstance(p, A.OpPattern):
            ops = self.pattern_ops(p)
            if ops:
                self._pattern_arity(p, ops)
            for i, arg in enumerate(p.args):
                self.pattern(arg, scope, kind_of_schema_type(argument_types(ops, i)) if ops else V.Any)
            for kw in p.kwargs:
                self.pattern(kw.pattern, scope, kind_of_schema_type(argument_types(ops, name=kw.key)) if ops else V.Any)

    def pattern_ops(self, p: A.OpPattern) -> Optional[Ops]:
        """The ops a pattern's callee names, resolved (and reported) once per pattern."""
        if id(p) not in self._pattern_ops:
            self._pattern_ops[id(p)] = (p, self.callee(p.callee))
        return self._pattern_ops[id(p)][1]

    def _pattern_arity(self, p: A.OpPattern, ops: Ops) -> None:
        limit = max_positional(ops)
        if limit is not None and len(p.args) > limit:
            self.report(error(
                f"'{p.callee.dotted}' takes at most {limit} positional argument{'s' * (limit != 1)} but the "
                f"pattern has {len(p.args)}, so it can never match", p.args[limit].span or p.span))
        names = argument_names(ops)
        if names is not None:
            for kw in p.kwargs:
                if kw.key not in names:
                    close = self._suggest.close(kw.key, sorted(names))
                    self.report(error(f"'{p.callee.dotted}' has no argument named '{kw.key}'", kw.span,
                                      hint=f"did you mean '{close}'?" if close else None))

    # ---------------------------------------------------------------- rules
    def _rule(self, rule: A.Rule) -> Optional[Ops]:
        self._stages = self._stage_clause(rule.stage, "rule", rule.span)
        self.result.stages[id(rule)] = self._stages
        if rule.match is None:
            return None
        root = self.pattern_ops(rule.match.pattern)
        self._root_at_stages(rule.match.pattern, root)
        scope: Scope = {rule.match.name: Binding(V.Node, root, rule.match.span)}
        self.pattern(rule.match.pattern, scope)
        self._path_only = PATH_ONLY
        if rule.path is not None:
            self._path_only = PATH_ONLY + (rule.path.step,)
            self._path(rule.path, scope)
        for section in S.GUARD_SECTIONS:
            cond = getattr(rule, section)
            if cond is not None:
                self.condition(cond, scope, section)
        for step in rule.rewrite:
            if isinstance(step, A.Build):
                self.build(step, scope)
            else:
                self.action(step, scope, "rewrite")
        return root

    def _path(self, path: A.PathClause, scope: Scope) -> None:
        if path.source not in scope:
            self.report(error(f"unbound variable '{path.source}'", path.span,
                              hint="the path source must be bound by the match pattern"))
        allowed = self.callees(path.allowed)
        source_ops = scope[path.source].ops if path.source in scope else None
        around = tuple(allowed) + tuple(source_ops) if allowed and source_ops else None
        for name in (path.name, path.target, path.step):
            if name is not None and name in scope:
                self.report(error(f"'{name}' is already bound", path.span,
                                  hint=f"first bound at {scope[name].span}"))
        if path.cond is not None:
            inner = dict(scope)
            inner[path.step] = Binding(V.Node, allowed, path.span)
            inner["current"] = Binding(V.Node, around, path.span)
            self.condition(path.cond, inner, "path condition")
        if path.name is not None:
            scope.setdefault(path.name, Binding(V.Path, None, path.span))
        scope.setdefault(path.target, Binding(V.Node, allowed if path.at_least_one else around, path.span))

    def _dependency(self, dep: A.Dependency) -> None:
        self._stages = self._stage_clause(dep.stage, "dependency", dep.span)
        self.result.stages[id(dep)] = self._stages
        root = self.pattern_ops(dep.on.pattern)
        self._root_at_stages(dep.on.pattern, root)
        scope: Scope = {dep.on.name: Binding(V.Node, root, dep.on.span)}
        self.pattern(dep.on.pattern, scope)
        self.expr(dep.mutates.target.base, scope, "mutates")
        if dep.mutates.index_var in scope:
            self.report(error(f"'{dep.mutates.index_var}' is already bound", dep.mutates.target.index.span,
                              hint=f"first bound at {scope[dep.mutates.index_var].span}"))
        inner = dict(scope)
        inner[dep.mutates.index_var] = Binding(V.Const, None, dep.mutates.span)
        self.condition(dep.mutates.cond, inner, "mutates")
        self.expr(dep.order.first, inner, "order")
        self.expr(dep.order.second, inner, "order")
        self.action(dep.via, inner, "via")
        if dep.fallback is not None and dep.fallback.mode not in A.FALLBACKS:
            self.report(error(f"unknown fallback '{dep.fallback.mode}'", dep.fallback.span,
                              hint="write `fallback error` (stop compiling, the default), `fallback compiler` "
                                   "(leave the op to the compiler's own handling) or `fallback reference` "
                                   "(compile the graph with torch's aot_eager)"))
        elif dep.fallback is not None and dep.fallback.mode == "reference" and any(s != "dynamo" for s in self._stages):
            self.report(error("`fallback reference` needs stage dynamo: the backend decides how to compile a graph "
                              "after its Dynamo stage", dep.fallback.span,
                              hint="write `stage dynamo`, or `fallback compiler`/`fallback error`"))

    # ---------------------------------------------------------------- rewrite steps
    def action(self, call: A.Call, scope: Scope, section: str) -> None:
        entry = self.registry.get(call.name)
        if entry is None:
            suggestion = self.registry.suggest(call.name, ("action",))
            self.report(error(f"unknown action '{call.name}'", call.span,
                              hint=f"did you mean '{suggestion}'?" if suggestion else None))
            for arg in call.args:
                self.expr(arg, scope, section)
            return
        if entry.kind != "action":
            self.report(error(f"'{call.name}' is a {entry.kind}, not an action; '{section}' calls actions",
                              call.span))
        else:
            self._usable_here(entry, call.span)
            self._checked_here(entry, call.span)
            if call.name == "reinplace" and call.args and isinstance(call.args[0], A.Var):
                bound = scope.get(call.args[0].name)
                for op in (bound.ops or ()) if bound is not None else ():
                    self._reinplace_compilable(op, call)
        self._call_args(call, entry, scope, section)

    def build(self, step: A.Build, scope: Scope) -> None:
        """A result pattern: the op must exist as one overload whose schema the arguments fit."""
        kinds = [self.expr(a, scope, "rewrite") for a in step.args]
        kw_kinds = {k.key: self.expr(k.value, scope, "rewrite") for k in step.kwargs}
        unchecked = self._unchecked_stages()
        if unchecked:
            self.report(error(f"a result pattern cannot run at stage '{unchecked[0]}': it builds ATen ops, which "
                              f"Dynamo graphs do not hold, and the legality check cannot read those graphs",
                              step.span, hint="run the rule at a post-grad stage (the default)"))
        op = self._build_overload(step, len(step.args), set(kw_kinds))
        if op is not None:
            self.result.builds[id(step)] = op
            self._build_fits(step, op, kinds, kw_kinds)
            self._compilable(op, step.callee.span, f"'{op.dotted}'")
        if step.name is not None:
            if step.name in scope:
                self.report(error(f"'{step.name}' is already bound", step.span,
                                  hint=f"first bound at {scope[step.name].span}"))
            scope[step.name] = Binding(V.Node, (op,) if op is not None else None, step.span)

    def _build_overload(self, step: A.Build, n_args: int, keys: Set[str]) -> Optional[OpRef]:
        try:
            op = OPS.resolve(step.callee.parts)
        except OpLookupError as exc:
            self.report(error(exc.message, step.callee.span, hint=exc.hint))
            return None
        if op.namespace == HIGHER_ORDER:
            self.report(error(f"a result pattern cannot build higher-order op '{op.dotted}'", step.callee.span))
            return None
        if op.overload is not None:
            return op
        fitting = []
        for overload, args in overload_schemas(op) or []:
            positional = [a for a in args if not a.kwarg_only]
            required = [a for a in positional if not a.has_default]
            if len(required) <= n_args <= len(positional) and keys <= {a.name for a in args}:
                fitting.append(overload)
        if len(fitting) == 1:
            return OPS.resolve(list(step.callee.parts) + [fitting[0]])
        overloads = ", ".join(o for o, _ in overload_schemas(op) or [])
        self.report(error(f"'{op.dotted}' has {'several overloads that fit' if fitting else 'no overload that fits'} "
                          f"these arguments; name one", step.callee.span, hint=f"overloads: {overloads}"))
        return None

    def _build_fits(self, step: A.Build, op: OpRef, kinds, kw_kinds) -> None:
        (_, args), = [(o, a) for o, a in overload_schemas(op) or [] if o == op.overload] or [("", None)]
        if args is None:
            return
        positional = [a for a in args if not a.kwarg_only]
        required = [a for a in positional if not a.has_default]
        if not len(required) <= len(kinds) <= len(positional):
            want = str(len(required)) if len(required) == len(positional) else f"{len(required)} to {len(positional)}"
            self.report(error(f"'{op.dotted}' takes {want} positional arguments, got {len(kinds)}", step.span))
            return
        by_name = {a.name: a for a in args}
        for key, kind in kw_kinds.items():
            if key not in by_name:
                close = self._suggest.close(key, list(by_name))
                self.report(error(f"'{op.dotted}' has no argument named '{key}'", step.span,
                                  hint=f"did you mean '{close}'?" if close else None))
        pairs = list(zip(positional, kinds, step.args)) + \
            [(by_name[k.key], kw_kinds[k.key], k.value) for k in step.kwargs if k.key in by_name]
        for arg, kind, expr in pairs:
            want = kind_of_schema_type(frozenset([arg.type]))
            if not V.accepts(want, kind):
                self.report(error(f"argument '{arg.name}' of '{op.dotted}' is a {arg.type}; "
                                  f"{_describe(expr)} is {_a(kind)}", expr.span or step.span))
        writes = [a.name for a in args if a.writes]
        if writes:
            frozen = [s for s in self._stages if not S.STAGES[s].mutation]
            if frozen:
                self.report(error(f"'{op.dotted}' writes its argument '{writes[0]}', but the {frozen[0]} graph "
                                  f"must stay functional", step.span))

    def _compilable(self, op: OpRef, span: A.Span, what: str) -> None:
        """Only ops Inductor can compile may be emitted (under CI it refuses more fallbacks)."""
        reason = cache.cannot_compile(op)
        if reason is not None:
            self.report(error(f"{what} would create {op.dotted}, which Inductor cannot compile", span, hint=reason))
            return
        reason = cache.hidden_alias(op)
        if reason is not None:
            self.report(error(f"{what} would create {op.dotted}, whose result may be its input itself", span,
                              hint=reason))

    def _reinplace_compilable(self, op: OpRef, call: A.Call) -> None:
        emitted = cache.reinplace_emits(op)
        if emitted is None:
            self.report(error(f"'reinplace' has no in-place form of '{op.dotted}'", call.span,
                              hint="the op has no overload `op_` with the same arguments"))
            return
        for name, reason in emitted:
            if reason is not None:
                self.report(error(f"'reinplace' of '{op.dotted}' would create {name}, which Inductor cannot "
                                  f"compile", call.span, hint=reason))
                return

    # ---------------------------------------------------------------- expressions
    def condition(self, e: A.Expr, scope: Scope, section: str) -> None:
        kind = self.expr(e, scope, section)
        if kind not in (V.Bool, V.Any, V.Const):
            self.report(error(f"'{section}' needs a condition, but {_describe(e)} is {_a(kind)}", e.span,
                              hint="call a predicate or compare values"))

    def _call_args(self, call: A.Call, entry: V.Entry, scope: Scope, section: str) -> None:
        kinds = [self.expr(arg, scope, section) for arg in call.args]
        if len(call.args) != entry.arity:
            self.report(error(f"'{call.name}' takes {entry.arity} argument{'s' * (entry.arity != 1)}, "
                              f"got {len(call.args)}", call.span))
            return
        for param, kind, arg in zip(entry.params, kinds, call.args):
            if not V.accepts(param.kind, kind):
                self.report(error(f"'{call.name}' expects {_a(param.kind)} for '{param.name}', "
                                  f"but {_describe(arg)} is {_a(kind)}", arg.span or call.span,
                                  hint=f"{entry.signature()}"))
        self._needs(entry, call.span)

    def expr(self, e: A.Expr, scope: Scope, section: str) -> V.Kind:
        """Check ``e`` and return its kind."""
        if isinstance(e, A.Var):
            if e.name not in scope:
                self.report(error(f"unbound variable '{e.name}'", e.span, hint=self._unbound_hint(e.name, scope)))
                return V.Any
            return self._narrowed(e, scope[e.name].kind)
        if isinstance(e, A.Literal):
            return V.Const
        if isinstance(e, A.ListExpr):
            for item in e.items:
                self.expr(item, scope, section)
            return V.List
        if isinstance(e, A.Call):
            entry = self.registry.get(e.name)
            if entry is None:
                suggestion = self.registry.suggest(e.name, ("predicate", "function"))
                self.report(error(f"unknown predicate or function '{e.name}'", e.span,
                                  hint=f"did you mean '{suggestion}'?" if suggestion else None))
                for arg in e.args:
                    self.expr(arg, scope, section)
                return V.Any
            if entry.kind == "action":
                self.report(error(f"action '{e.name}' cannot be used in '{section}'", e.span,
                                  hint="actions change the graph; they belong in 'rewrite' and 'via'"))
                for arg in e.args:
                    self.expr(arg, scope, section)
                return V.Any
            self._usable_here(entry, e.span)
            self._call_args(e, entry, scope, section)
            return self._narrowed(e, entry.result)
        if isinstance(e, A.Index):
            self._role_index(e, scope)
            base = self.expr(e.base, scope, section)
            self.expr(e.index, scope, section)
            if base not in (V.List, V.Any):
                self.report(error(f"{_describe(e.base)} is {_a(base)}; only lists can be indexed", e.span))
            return V.Any
        if isinstance(e, A.Attr):
            base = self.expr(e.base, scope, section)
            attr = self.registry.get_attribute(e.name)
            if attr is None:
                names = [a.name for a in self.registry.attributes()]
                close = self._suggest.close(e.name, names)
                self.report(error(f"unknown attribute '{e.name}'", e.span,
                                  hint=f"did you mean '{close}'?" if close else f"attributes: {', '.join(names)}"))
                return V.Any
            if not V.accepts(attr.on, base) or (attr.on is V.Node and base is V.OptNode):
                self.report(error(f"'{e.name}' is an attribute of {_a(attr.on)}, but {_describe(e.base)} is "
                                  f"{_a(base)}", e.span))
            return attr.result
        if isinstance(e, A.Not):
            self.expr(e.operand, scope, section)
            return V.Bool
        if isinstance(e, A.And):
            outer = set(self._not_none)
            for item in e.items:
                self.expr(item, scope, section)
                self._not_none |= _not_none_after(item)
            self._not_none = outer
            return V.Bool
        if isinstance(e, A.Or):
            for item in e.items:
                self.expr(item, scope, section)
            return V.Bool
        if isinstance(e, A.Compare):
            self.expr(e.left, scope, section)
            self.expr(e.right, scope, section)
            return V.Bool
        return V.Any

    def _narrowed(self, e: A.Expr, kind: V.Kind) -> V.Kind:
        """A node-or-None expression already tested ``is not None`` earlier in the same ``and``
        is a node (``and`` stops at the first false operand, so it is never None there)."""
        return V.Node if kind is V.OptNode and e in self._not_none else kind

    def _unbound_hint(self, name: str, scope) -> Optional[str]:
        if name in self._path_only:
            return f"'{name}' is bound only inside a path's 'when' condition"
        close = self._suggest.close(name, list(scope))
        if close:
            return f"did you mean '{close}'?"
        entry = self.registry.get(name)
        if entry is not None:
            return f"'{name}' is a {entry.kind}: call it as {name}(...)"
        return None

    def _role_index(self, e: A.Index, scope: Scope) -> None:
        """``u.args[N]`` past every schema the node bound to ``u`` can have is a dead condition."""
        base = e.base
        if not (isinstance(base, A.Attr) and base.name == "args" and isinstance(base.base, A.Var)):
            return
        if not (isinstance(e.index, A.Literal) and type(e.index.value) is int):
            return
        bound = scope.get(base.base.name)
        ops = bound.ops if bound is not None else None
        if not ops:
            return
        limit = max_positional(ops)
        if limit is not None and e.index.value >= limit:
            names = ", ".join(sorted({op.dotted for op in ops}))
            verb = "takes" if len(ops) == 1 else "take"
            self.report(error(
                f"'{base.base.name}.args[{e.index.value}]' is out of range: {names} {verb} at most {limit} "
                f"positional argument{'s' * (limit != 1)}, so this rule can never fire", e.index.span or e.span))

    # ---------------------------------------------------------------- overlaps
    def _overlaps(self, rules: List[Tuple[A.Rule, Optional[Ops]]]) -> None:
        """ISLE-style: two rules at the same priority whose roots share an op and one of whose
        patterns matches everything the other does -- which one fires depends on load order.
        Indexed and aggregated (one warning per set of overlapping rules): see :mod:`rewrite.lang.overlaps`."""
        found = find_overlaps(rules, self.pattern_ops)
        self.result.overlap_comparisons = found.comparisons
        for diag in found.warnings:
            self.report(diag)


def _a(kind: V.Kind) -> str:
    """'a node', 'a path', 'None'..."""
    names = {"node": "a node", "node?": "a node or None", "path": "a path", "list": "a list",
             "const": "a constant", "number": "a number", "bool": "a condition", "op": "an op",
             "any": "anything", "nothing": "nothing"}
    return names.get(kind.name, kind.name)


def _not_none_after(e: A.Expr) -> Set[A.Expr]:
    """The expressions a true ``e`` shows are not None: ``X is not None``, and every such
    test of an ``and``."""
    if isinstance(e, A.Compare) and e.op == "is not" and isinstance(e.right, A.Literal) and e.right.value is None:
        return {e.left}
    if isinstance(e, A.And):
        return set().union(*(_not_none_after(item) for item in e.items))
    return set()


def _describe(e: A.Expr) -> str:
    """A short quote of an expression for messages."""
    if isinstance(e, A.Var):
        return f"'{e.name}'"
    if isinstance(e, A.Literal):
        return repr(e.value) if e.value is not None else "None"
    if isinstance(e, A.Call):
        return f"'{e.name}(...)'"
    if isinstance(e, A.Attr):
        return f"'{_describe(e.base).strip(chr(39))}.{e.name}'"
    return "this expression"
