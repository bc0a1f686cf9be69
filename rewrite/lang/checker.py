"""Semantic checks over parsed modules: names resolve, calls fit the vocabulary, variables are
bound before use, and no rule is dead or silently shadowed by another.

All problems are collected (never raised) as :class:`Diagnostic`; the resolved op sets and fact
tables are returned alongside so the loader does not resolve anything twice.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Set, Tuple

from rewrite.lang import ast as A
from rewrite.lang.diagnostics import Diagnostic, error
from rewrite.lang.ops import OPS, OpLookupError, OpRef, argument_names, max_positional
from rewrite.lang.overlaps import find_overlaps
from rewrite.lang.suggest import Suggester
from rewrite.vocab import Registry, default_registry

SAVED_FOR_BACKWARD_KEYS = ("output", "input", "both", "none")
PATH_ONLY = ("current",)

Ops = Tuple[OpRef, ...]


@dataclass
class CheckResult:
    diagnostics: List[Diagnostic] = field(default_factory=list)
    opsets: Dict[str, Ops] = field(default_factory=dict)
    facts: Dict[str, Dict[str, Ops]] = field(default_factory=dict)
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


class _Checker:
    def __init__(self, registry: Registry):
        self.registry = registry
        self.result = CheckResult()
        self.opset_items: Dict[str, A.OpSet] = {}
        self._resolving: List[str] = []
        self._broken_opsets: Set[str] = set()  # reported once, then silently unresolved
        self._path_only: Tuple[str, ...] = PATH_ONLY  # plus the current rule's path step variable
        self._pattern_ops: Dict[int, Tuple[A.OpPattern, Optional[Ops]]] = {}  # keeps p alive: ids stay unique
        self._suggest = Suggester()  # bounded "did you mean" for unknown opsets

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
        rules: List[Tuple[A.Rule, Optional[Ops]]] = []
        for item in items:
            if isinstance(item, A.Facts):
                self._facts(item)
            elif isinstance(item, A.Rule):
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

    # ---------------------------------------------------------------- facts
    def _facts(self, facts: A.Facts) -> None:
        table: Dict[str, Ops] = {}
        for group in facts.groups:
            if facts.name == "saved_for_backward" and group.key not in SAVED_FOR_BACKWARD_KEYS:
                close = difflib.get_close_matches(group.key, SAVED_FOR_BACKWARD_KEYS, n=1)
                hint = f"did you mean '{close[0]}'?" if close else \
                    f"keys of saved_for_backward are {', '.join(SAVED_FOR_BACKWARD_KEYS)}"
                self.report(error(f"unknown saved_for_backward key '{group.key}'", group.span, hint=hint))
            if group.key in table:
                self.report(error(f"duplicate fact key '{group.key}' in '{facts.name}'", group.span))
            ops: List[OpRef] = list(table.get(group.key, ()))
            for callee in group.ops:
                ops.extend(self.callee(callee) or ())
            table[group.key] = tuple(ops)
        if facts.name not in self.result.facts:
            self.result.facts[facts.name] = table

    # ---------------------------------------------------------------- patterns
    def pattern(self, p: A.Pattern, binds: Dict[str, Optional[Ops]], spans: Dict[str, A.Span]) -> None:
        """Resolve ops in ``p``, check arities, and collect its bindings (name -> op set)."""
        if isinstance(p, A.Bind):
            if p.name in binds:
                self.report(error(f"'{p.name}' is bound twice", p.span, hint=f"first bound at {spans[p.name]}"))
            ops = self.pattern_ops(p.pattern) if isinstance(p.pattern, A.OpPattern) else None
            binds[p.name] = ops
            spans.setdefault(p.name, p.span)
            if p.pattern is not None:
                self.pattern(p.pattern, binds, spans)
        elif isinstance(p, A.ListPattern):
            for item in p.items:
                self.pattern(item, binds, spans)
        elif isinstance(p, A.OpPattern):
            ops = self.pattern_ops(p)
            if ops:
                self._pattern_arity(p, ops)
            for arg in p.args:
                self.pattern(arg, binds, spans)
            for kw in p.kwargs:
                self.pattern(kw.pattern, binds, spans)

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
                    close = difflib.get_close_matches(kw.key, sorted(names), n=1)
                    self.report(error(f"'{p.callee.dotted}' has no argument named '{kw.key}'", kw.span,
                                      hint=f"did you mean '{close[0]}'?" if close else None))

    # ---------------------------------------------------------------- rules
    def _rule(self, rule: A.Rule) -> Optional[Ops]:
        root = self.pattern_ops(rule.match.pattern)
        binds: Dict[str, Optional[Ops]] = {rule.match.name: root}
        spans = {rule.match.name: rule.match.span}
        self.pattern(rule.match.pattern, binds, spans)
        self._path_only = PATH_ONLY
        if rule.path is not None:
            self._path_only = PATH_ONLY + (rule.path.step,)
            self._path(rule.path, binds, spans)
        for section in ("where", "profitable", "safe"):
            cond = getattr(rule, section)
            if cond is not None:
                self.expr(cond, binds, section)
        for call in rule.rewrite:
            self.action(call, binds, "rewrite")
        return root

    def _path(self, path: A.PathClause, binds: Dict[str, Optional[Ops]], spans) -> None:
        if path.source not in binds:
            self.report(error(f"unbound variable '{path.source}'", path.span,
                              hint="the path source must be bound by the match pattern"))
        allowed = self.callee(path.allowed)
        source_ops = binds.get(path.source)
        around = tuple(allowed) + tuple(source_ops) if allowed and source_ops else None
        for name in (path.name, path.target, path.step):
            if name is not None and name in binds:
                self.report(error(f"'{name}' is already bound", path.span, hint=f"first bound at {spans[name]}"))
        if path.cond is not None:
            inner = dict(binds)
            inner[path.step] = allowed
            inner["current"] = around
            self.expr(path.cond, inner, "path condition")
        if path.name is not None:
            binds[path.name] = None
        binds[path.target] = allowed if path.at_least_one else around
        for name in (path.name, path.target):
            if name is not None:
                spans.setdefault(name, path.span)

    def _dependency(self, dep: A.Dependency) -> None:
        binds: Dict[str, Optional[Ops]] = {dep.on.name: self.pattern_ops(dep.on.pattern)}
        spans = {dep.on.name: dep.on.span}
        self.pattern(dep.on.pattern, binds, spans)
        self.expr(dep.mutates.target.base, binds, "mutates")
        if dep.mutates.index_var in binds:
            self.report(error(f"'{dep.mutates.index_var}' is already bound", dep.mutates.target.index.span,
                              hint=f"first bound at {spans[dep.mutates.index_var]}"))
        inner = dict(binds)
        inner[dep.mutates.index_var] = None
        self.expr(dep.mutates.cond, inner, "mutates")
        self.expr(dep.order.first, inner, "order")
        self.expr(dep.order.second, inner, "order")
        self.action(dep.via, inner, "via")

    # ---------------------------------------------------------------- expressions
    def action(self, call: A.Call, scope: Dict[str, Optional[Ops]], section: str) -> None:
        entry = self.registry.get(call.name)
        if entry is None:
            suggestion = self.registry.suggest(call.name, ("action",))
            self.report(error(f"unknown action '{call.name}'", call.span,
                              hint=f"did you mean '{suggestion}'?" if suggestion else None))
        elif entry.kind != "action":
            self.report(error(f"'{call.name}' is a {entry.kind}, not an action; '{section}' calls actions",
                              call.span))
        else:
            self._arity(call, entry.arity)
        for arg in call.args:
            self.expr(arg, scope, section)

    def _arity(self, call: A.Call, arity: int) -> None:
        if len(call.args) != arity:
            self.report(error(f"'{call.name}' takes {arity} argument{'s' * (arity != 1)}, "
                              f"got {len(call.args)}", call.span))

    def expr(self, e: A.Expr, scope: Dict[str, Optional[Ops]], section: str) -> None:
        if isinstance(e, A.Var):
            if e.name not in scope:
                self.report(error(f"unbound variable '{e.name}'", e.span, hint=self._unbound_hint(e.name, scope)))
        elif isinstance(e, A.Call):
            entry = self.registry.get(e.name)
            if entry is None:
                kinds = ("predicate", "function")
                suggestion = self.registry.suggest(e.name, kinds)
                self.report(error(f"unknown predicate or function '{e.name}'", e.span,
                                  hint=f"did you mean '{suggestion}'?" if suggestion else None))
            elif entry.kind == "action":
                self.report(error(f"action '{e.name}' cannot be used in '{section}'", e.span,
                                  hint="actions change the graph; they belong in 'rewrite' and 'via'"))
            else:
                self._arity(e, entry.arity)
            for arg in e.args:
                self.expr(arg, scope, section)
        elif isinstance(e, A.Index):
            self._role_index(e, scope)
            self.expr(e.base, scope, section)
            self.expr(e.index, scope, section)
        elif isinstance(e, A.Attr):
            self.expr(e.base, scope, section)
        elif isinstance(e, A.Not):
            self.expr(e.operand, scope, section)
        elif isinstance(e, (A.And, A.Or, A.ListExpr)):
            for item in e.items:
                self.expr(item, scope, section)
        elif isinstance(e, A.Compare):
            self.expr(e.left, scope, section)
            self.expr(e.right, scope, section)

    def _unbound_hint(self, name: str, scope) -> Optional[str]:
        if name in self._path_only:
            return f"'{name}' is bound only inside a path's 'when' condition"
        close = difflib.get_close_matches(name, list(scope), n=1)
        if close:
            return f"did you mean '{close[0]}'?"
        entry = self.registry.get(name)
        if entry is not None:
            return f"'{name}' is a {entry.kind}: call it as {name}(...)"
        return None

    def _role_index(self, e: A.Index, scope: Dict[str, Optional[Ops]]) -> None:
        """``u.args[N]`` past every schema the node bound to ``u`` can have is a dead condition."""
        base = e.base
        if not (isinstance(base, A.Attr) and base.name == "args" and isinstance(base.base, A.Var)):
            return
        if not (isinstance(e.index, A.Literal) and type(e.index.value) is int):
            return
        ops = scope.get(base.base.name)
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
