"""A compiled rule set and its application to FX graphs.

``RuleSet.apply(gm)`` visits the subgraphs of higher-order ops first (inner first), then the
graph itself.  On each graph it runs dependencies, then rules, to a fixpoint: every node whose
target some rule's root op matches is a candidate, and each candidate goes through the stages
match -> where -> profitable -> safe -> rewrite in that order.  The rewrite runs inside a
transaction; a failing action or validation rolls the graph back and the pass goes on.
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch
import torch.fx as fx

from rewrite.analysis.graph_facts import GraphFacts
from rewrite.analysis.op_names import op_display_name
from rewrite.engine import compiler
from rewrite.engine.context import Context
from rewrite.engine.report import Candidate, Report, log, trace_log
from rewrite.engine.transaction import Transaction
from rewrite.lang import ast

ENGINE_VERSION = "1"
MAX_ITERATIONS = 16


@dataclass
class CompiledRule:
    name: str
    location: str
    kind: str                                # "rule" or "dependency"
    root_targets: frozenset
    root_name: str
    match: compiler.Matcher
    priority: int
    order: int
    path: Optional[Callable] = None
    path_name: Optional[str] = None
    path_target: Optional[str] = None
    guards: List[Tuple[str, compiler.Evaluator]] = field(default_factory=list)
    actions: List[Tuple[Any, List[compiler.Evaluator]]] = field(default_factory=list)
    # dependencies
    mutates: Optional[Tuple[compiler.Evaluator, compiler.Evaluator, str]] = None
    order_check: Optional[Tuple[compiler.Evaluator, str, compiler.Evaluator]] = None


def _location(span: ast.Span) -> str:
    """``file:line`` of a rule, relative to the working directory when it lies below it."""
    path = span.file
    try:
        rel = os.path.relpath(path)
        if not rel.startswith(".."):
            path = rel
    except ValueError:  # another drive on Windows
        pass
    return f"{path}:{span.line}"


def _compile_actions(calls: Sequence[ast.Call], registry) -> List[Tuple[Any, List[compiler.Evaluator]]]:
    out = []
    for call in calls:
        entry = registry.get(call.name)
        if entry is None or entry.kind != "action":
            raise compiler.EvalError(f"{call.name} is not an action")
        out.append((entry, [compiler.compile_expr(a, registry) for a in call.args]))
    return out


def _compiled_root(item, match: ast.Match, kind: str, order: int, loaded, priority: int = 0) -> CompiledRule:
    """The parts every rule and dependency has: its root pattern, indexed by the root op."""
    return CompiledRule(
        name=item.name, location=_location(item.span), kind=kind,
        root_targets=frozenset(loaded.resolve(match.pattern.callee)), root_name=match.name,
        match=compiler.compile_pattern(ast.Bind(match.name, match.pattern), loaded.resolve),
        priority=priority, order=order,
    )


def compile_rule(rule: ast.Rule, order: int, loaded, registry) -> CompiledRule:
    cr = _compiled_root(rule, rule.match, "rule", order, loaded, rule.priority or 0)
    if rule.path is not None:
        cr.path = compiler.compile_path(rule.path, loaded.resolve, registry)
        cr.path_name, cr.path_target = rule.path.name, rule.path.target
    for stage in ("where", "profitable", "safe"):
        expr = getattr(rule, stage)
        if expr is not None:
            cr.guards.append((stage, compiler.compile_expr(expr, registry)))
    cr.actions = _compile_actions(rule.rewrite, registry)
    return cr


def compile_dependency(dep: ast.Dependency, order: int, loaded, registry) -> CompiledRule:
    cr = _compiled_root(dep, dep.on, "dependency", order, loaded)
    cr.mutates = (compiler.compile_expr(dep.mutates.target.base, registry),
                  compiler.compile_expr(dep.mutates.cond, registry), dep.mutates.index_var)
    cr.order_check = (compiler.compile_expr(dep.order.first, registry), dep.order.relation,
                      compiler.compile_expr(dep.order.second, registry))
    cr.actions = _compile_actions([dep.via], registry)
    return cr


class RuleSet:
    """Rules and dependencies compiled once, indexed by root op target."""

    def __init__(self, loaded, registry=None, strict: bool = False):
        from rewrite.vocab import default_registry

        self.loaded = loaded
        self.registry = registry or default_registry()
        self.strict = strict
        self.fact_tables = {name: dict(table) for name, table in getattr(loaded, "facts", {}).items()}
        compiled = [compile_dependency(d, i, loaded, self.registry) for i, d in enumerate(loaded.dependencies)]
        compiled += [compile_rule(r, i, loaded, self.registry) for i, r in enumerate(loaded.rules)]
        self.dependencies = [c for c in compiled if c.kind == "dependency"]
        self.rules = sorted((c for c in compiled if c.kind == "rule"), key=lambda c: (-c.priority, c.order))
        self._index: Dict[Any, List[CompiledRule]] = {}
        for c in self.dependencies + self.rules:
            for t in c.root_targets:
                self._index.setdefault(t, []).append(c)
        self.digest = hashlib.sha256((getattr(loaded, "digest", "") + ENGINE_VERSION).encode()).hexdigest()

    @classmethod
    def load(cls, paths: Optional[Sequence] = None, registry=None, strict: bool = False) -> "RuleSet":
        from rewrite.lang.loader import load, shipped_rules_dir

        if paths is None:
            paths = [shipped_rules_dir()]
        return cls(load([Path(p) for p in paths], registry=registry), registry=registry, strict=strict)

    def __len__(self) -> int:
        return len(self.rules) + len(self.dependencies)

    def candidates_for(self, node: fx.Node) -> List[CompiledRule]:
        if node.op != "call_function":
            return []
        found = self._index.get(node.target, [])
        packet = getattr(node.target, "overloadpacket", None) if isinstance(node.target, torch._ops.OpOverload) else None
        if packet is not None and packet in self._index:
            found = sorted(found + self._index[packet], key=lambda c: (c.kind != "dependency", -c.priority, c.order))
        return found

    # ------------------------------------------------------------------ application

    def apply(self, gm: fx.GraphModule, graph_kind: str = "inference", report: Optional[Report] = None,
              recompile: bool = True, kinds: Sequence[str] = ("dependency", "rule")) -> Report:
        """Rewrite ``gm`` in place with the rules and/or dependencies (``kinds``).
        ``recompile=False`` leaves regenerating ``gm.code`` to the caller (Inductor recompiles
        after its own post-grad passes anyway)."""
        with _gc_paused():
            return self._apply(gm, graph_kind, report or Report(graph=graph_kind), recompile, frozenset(kinds))

    def _apply(self, gm: fx.GraphModule, graph_kind: str, report: Report, recompile: bool, kinds) -> Report:
        small = len(gm.graph.nodes) < 2000
        report.graph_before = _readable(gm) if small else ""
        if not len(self):
            report.graph_after, report.ops_before = report.graph_before, count_ops(gm.graph)
            report.ops_after = dict(report.ops_before)
            return report
        report.ops_before = count_ops(gm.graph)
        for name, sub in _subgraphs(gm):
            self._apply_graph(sub, sub.graph, f"{graph_kind}/{name}", report, kinds)
        self._apply_graph(gm, gm.graph, graph_kind, report, kinds)
        gm.graph.lint()
        if recompile:
            gm.recompile()
        report.graph_after = _readable(gm) if small else ""
        report.ops_after = count_ops(gm.graph)
        return report

    def _apply_graph(self, root: fx.GraphModule, graph: fx.Graph, graph_kind: str, report: Report, kinds) -> None:
        kind = graph_kind.split("/")[0]   # a subgraph is analysed as the kind of graph that holds it
        ctx = Context(root, graph, GraphFacts(graph, kind), self.fact_tables, kind)
        records: Dict[Tuple[str, str], Candidate] = {}
        seen = {graph_fingerprint(graph)}
        for iteration in range(MAX_ITERATIONS):
            report.iterations += 1
            changed = False
            for node in list(graph.nodes):
                if node._erased:
                    continue
                for rule in self.candidates_for(node):
                    if node._erased:
                        break
                    if rule.kind not in kinds:
                        continue
                    cand = self._try(rule, node, ctx, graph_kind)
                    if cand.fired:
                        report.candidates.append(cand)
                        report.bytes_removed += ctx.bytes_removed
                        records.pop((rule.name, cand.node), None)
                        changed = True
                    else:
                        records[(rule.name, cand.node)] = cand
                        if cand.stopped_at == "rewrite" and cand.line() not in report.warnings:
                            report.warnings.append(cand.line())   # once, though retried each pass
            if not changed:
                break
            fingerprint = graph_fingerprint(graph)
            if fingerprint in seen:
                report.warnings.append(f"{graph_kind}: rewrites cycle (the graph came back to an earlier form); stopped")
                log.warning("%s", report.warnings[-1])
                break
            seen.add(fingerprint)
        else:
            report.warnings.append(f"{graph_kind}: no fixpoint after {MAX_ITERATIONS} iterations; stopped")
            log.warning("%s", report.warnings[-1])
        report.candidates.extend(records.values())

    def _try(self, rule: CompiledRule, node: fx.Node, ctx: Context, graph_kind: str) -> Candidate:
        cand = Candidate(rule.name, rule.location, node.name, graph_kind, stopped_at="match")
        reached = ["match"]
        ctx.reset()
        why: List[str] = []
        bindings: Dict[str, Any] = {}
        if not rule.match(node, bindings, why):
            return self._stop(cand, reached, "match", "; ".join(reversed(why)) or "pattern does not match")
        ctx.bindings = bindings
        try:
            if rule.path is not None:
                path, note = rule.path(ctx)
                if path is None:
                    return self._stop(cand, reached, "match", note)
                if rule.path_name:
                    ctx.bindings[rule.path_name] = path
                ctx.bindings[rule.path_target] = path.last
            if rule.kind == "dependency":
                reached.append("where")
                mutated, detail = self._mutated_indices(rule, ctx)
                if not mutated:
                    return self._stop(cand, reached, "where", detail)
                ctx.mutated_indices = mutated
            for stage, guard in rule.guards:
                reached.append(stage)
                ok, detail = guard(ctx)
                if not ok:
                    return self._stop(cand, reached, stage, detail)
        except Exception as e:  # a guard that cannot be evaluated on this graph is false
            return self._stop(cand, reached, reached[-1], f"could not evaluate: {type(e).__name__}: {e}")
        reached.append("rewrite")
        return self._rewrite(rule, ctx, cand, reached)

    def _rewrite(self, rule: CompiledRule, ctx: Context, cand: Candidate, reached: List[str]) -> Candidate:
        bindings_before = dict(ctx.bindings)
        txn = Transaction(ctx.root, ctx.graph, strict=self.strict, on_new_node=ctx.facts.note_new_node)
        ctx.txn = txn
        try:
            for entry, arg_evals in rule.actions:
                args = [a(ctx)[0] for a in arg_evals]
                entry.impl(ctx, *args)
            if rule.order_check is not None:
                self._check_order(rule, ctx)
            txn.validate()
            txn.commit()
        except Exception as e:
            txn.rollback()
            ctx.bindings = bindings_before
            msg = f"{type(e).__name__}: {e}; graph restored"
            log.warning("rule %s @ %s on %s failed: %s", rule.name, rule.location, cand.node, msg)
            return self._stop(cand, reached, "rewrite", msg)
        finally:
            ctx.txn = None
        cand.stopped_at = None
        cand.reached = tuple(reached)
        cand.before = tuple(ctx.removed)
        cand.after = tuple(ctx.live_created())
        log.info("fired %s @ %s on %s [%s]", rule.name, rule.location, cand.node, cand.graph)
        return cand

    def _mutated_indices(self, rule: CompiledRule, ctx: Context) -> Tuple[List[int], str]:
        list_eval, cond_eval, var = rule.mutates
        values, shown = list_eval(ctx)
        if not isinstance(values, (list, tuple)):
            return [], f"{shown} is not a list"
        out, details = [], []
        for i in range(len(values)):
            ctx.bindings[var] = i
            ok, d = cond_eval(ctx)
            (out if ok else details).append(i if ok else d)
        ctx.bindings.pop(var, None)
        if out:
            return out, ""
        return out, f"no element of {shown} is mutated" + (": " + "; ".join(details) if details else " (it is empty)")

    def _check_order(self, rule: CompiledRule, ctx: Context) -> None:
        first_eval, relation, second_eval = rule.order_check
        var = rule.mutates[2]
        for i in ctx.mutated_indices:
            ctx.bindings[var] = i
            first, fd = first_eval(ctx)
            second, sd = second_eval(ctx)
            if not isinstance(first, fx.Node) or not isinstance(second, fx.Node):
                raise compiler.EvalError(f"order: {fd} or {sd} is not a node after the rewrite")
            ok = second < first if relation == "after" else first < second
            if not ok:
                raise compiler.EvalError(f"order violated: {fd} is not {relation} {sd}")
        ctx.bindings.pop(var, None)

    @staticmethod
    def _stop(cand: Candidate, reached: List[str], stage: str, reason: str) -> Candidate:
        cand.stopped_at = stage
        cand.reason = reason
        cand.reached = tuple(reached)
        trace_log.debug("%s", cand.line())
        return cand


@contextlib.contextmanager
def _gc_paused():
    """The pass allocates many small objects and frees few: Python's cyclic collector would scan
    the whole (large) graph again and again, making the pass superlinear in graph size."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _subgraphs(gm: fx.GraphModule, prefix: str = "") -> List[Tuple[str, fx.GraphModule]]:
    """Subgraph modules referenced by get_attr nodes, innermost first."""
    out = []
    for node in gm.graph.nodes:
        if node.op == "get_attr":
            sub = getattr(gm, node.target, None)
            if isinstance(sub, fx.GraphModule):
                name = f"{prefix}{node.target}"
                out.extend(_subgraphs(sub, name + "/"))
                out.append((name, sub))
    return out


def graph_fingerprint(graph: fx.Graph) -> int:
    """Structure of the graph independent of node names: ops, targets and argument positions."""
    index = {n: i for i, n in enumerate(graph.nodes)}

    def shape(a):
        if isinstance(a, fx.Node):
            return ("%", index.get(a, -1))
        if isinstance(a, (list, tuple)):
            return tuple(shape(x) for x in a)
        if isinstance(a, dict):
            return tuple((k, shape(v)) for k, v in a.items())
        return repr(a)

    return hash(tuple((n.op, str(n.target), shape(n.args), shape(n.kwargs)) for n in graph.nodes))


def count_ops(graph: fx.Graph) -> Dict[str, int]:
    counts: Dict[str, int] = {}
    for n in graph.nodes:
        if n.op == "call_function":
            key = op_display_name(n.target)
        elif n.op == "call_method":
            key = f"Tensor.{n.target}"
        else:
            continue
        counts[key] = counts.get(key, 0) + 1
    return counts


def _readable(gm: fx.GraphModule) -> str:
    try:
        return gm.print_readable(print_output=False)
    except Exception:
        return str(gm.graph)
