"""A compiled rule set and its application to FX graphs.

``RuleSet.apply(gm, stage)`` runs the rules and dependencies of one stage (``dynamo``, ``joint``,
``inference``, ``forward``, ``backward``) on ``gm``: the subgraphs of higher-order ops first
(innermost first), then the graph itself.  Rules run by priority, highest first; the rules of one
priority reach a fixpoint before the next ones start, and the whole sweep repeats until nothing
fires.  Every node whose target a rule's root op matches is a candidate, and each candidate goes
through the steps match -> where -> profitable -> safe -> rewrite -> legality.  The rewrite runs
inside a transaction; a failing action, a failed validation or a refusal by the legality check
(:mod:`rewrite.analysis.legality`) rolls the graph back and the pass goes on.  On post-grad
graphs the pass ends by making sure Inductor's own reinplacing, which runs after it, cannot make
an unsafe decision (:func:`rewrite.engine.nets.own_inductor_reinplacing`).
"""
from __future__ import annotations

import contextlib
import gc
import logging
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Set, Tuple

import torch
import torch.fx as fx

from rewrite import stages as S
from rewrite.analysis.inductor import copies as copy_count
from rewrite.analysis.inductor import operand_layouts, subgraph_constants, symbolic_offsets
from rewrite.analysis.inductor import earlier_passes, functionalized_calls, reinplace
from rewrite.analysis.facts import op_facts
from rewrite.analysis.semantics import stale_reads
from rewrite.analysis.semantics import aliases
from rewrite.analysis.graph_facts import GraphFacts, hop_subgraphs, subgraph_written_placeholders
from rewrite.analysis.legality import Legality, functions_address_fresh_operands
from rewrite.analysis.facts.verdict import Verdict
from rewrite.engine import compiler
from rewrite.engine.cache_key import cache_key
from rewrite.engine.context import Context
from rewrite.engine import nets
from rewrite.engine.errors import ActionError, EarlierPassError, EvalError, Refused  # noqa: F401 (EarlierPassError: public here)
from rewrite.engine.report import Candidate, CopyComparison, GraphSnapshot, Report, count_ops, log, trace_log, warn
from rewrite.engine.transaction import Snapshot, Transaction
from rewrite.engine.value_copies import VALUE_KEEPING_ACTIONS, only_copies_values
from rewrite.lang.loader import load as load_rules
from rewrite.lang.loader import shipped_rules_dir
from rewrite.vocab import default_registry

#: Sweeps that fire before the engine gives up on a fixpoint.  Sweeps that fire nothing do not
#: count: every priority tier sweeps once per round, and a graph that needs a few rounds would
#: otherwise run out as the rule files gain tiers.
MAX_SWEEPS = 32
#: Sweeps that fire before the engine starts fingerprinting the graph to see it cycle (most
#: graphs reach their fixpoint in fewer: they pay nothing; a cycle is seen a few sweeps later).
CYCLE_WATCH_AFTER = 2
#: Seconds one rule may spend on one graph before it is stopped there (with a warning).
RULE_TIME_BUDGET = 60.0
#: A pass may grow a graph to at most this many times its size plus ``GROWTH_SLACK`` nodes.
GROWTH_FACTOR = 2.0
GROWTH_SLACK = 1000
#: Graphs larger than this are not measured against stock Inductor's final graph even when asked
#: (the measurement runs Inductor's reinplacing on the graph as received, besides the final one).
COPY_MEASURE_LIMIT = 20000


class ReferenceFallback(RuntimeError):
    """A dependency that says ``fallback reference`` could not be applied: on the Inductor base
    the graph (the op left as it was) is compiled by torch's reference pipeline, ``aot_eager``."""


class DependencyError(RuntimeError):
    """A dependency could not be evaluated or applied: the program would lose a mutation, so
    compilation stops instead."""


@dataclass
class _GraphState:
    """What one pass keeps about one graph."""

    root: fx.GraphModule
    graph: fx.Graph
    stage: str
    label: str
    facts: GraphFacts
    legality: Optional[Legality]
    ctx: Context
    initial_size: int
    spent: Dict[str, float] = field(default_factory=dict)
    disabled: Dict[str, str] = field(default_factory=dict)
    seconds: Dict[str, float] = field(default_factory=dict)   # time in the engine's own steps
    #: Why the legality check cannot read this graph (``Legality.functional_reading_differs``,
    #: ``aliases.shared_inputs``):
    #: then no rule rewrites it (dependencies still run) and Inductor gets it as it is.
    left_to_inductor: str = ""
    subgraph: bool = False                 # a higher-order op's function
    inductor: bool = True                  # Inductor lowers the graph (False: the eager base)
    #: Dependencies that said ``fallback reference`` and could not be applied (why, each).
    left_to_reference: List[str] = field(default_factory=list)


class RuleSet:
    """Rules and dependencies compiled once, indexed by root op target."""

    def __init__(self, loaded, registry=None, strict: bool = False, legality: bool = True):
        self.loaded = loaded
        self.registry = registry or default_registry()
        self.strict = strict
        self.legality = legality
        self.fact_tables = {name: dict(table) for name, table in getattr(loaded, "facts", {}).items()}
        compiled = [compiler.compile_dependency(d, i, loaded, self.registry, loaded.stages_of(d))
                    for i, d in enumerate(loaded.dependencies)]
        compiled += [compiler.compile_rule(r, i, loaded, self.registry, loaded.stages_of(r))
                     for i, r in enumerate(loaded.rules)]
        self.dependencies = [c for c in compiled if c.kind == "dependency"]
        self.rules = sorted((c for c in compiled if c.kind == "rule"), key=lambda c: (-c.priority, c.order))
        self._index: Dict[Any, List[compiler.CompiledRule]] = {}
        self._candidates: Dict[Tuple[Any, str], List[compiler.CompiledRule]] = {}   # candidates_for, once per op
        for c in self.dependencies + self.rules:
            for t in c.root_targets:
                self._index.setdefault(t, []).append(c)
        self.digest = cache_key(loaded, self.registry)

    @classmethod
    def load(cls, paths=None, registry=None, strict: bool = False, legality: bool = True) -> "RuleSet":
        """``paths``: None (the shipped rules), one file or folder, or a list of them."""
        if paths is None:
            paths = [shipped_rules_dir()]
        elif isinstance(paths, (str, os.PathLike)):
            paths = [paths]
        return cls(load_rules([Path(p) for p in paths], registry=registry), registry=registry, strict=strict,
                   legality=legality)

    def __len__(self) -> int:
        return len(self.rules) + len(self.dependencies)

    def stages(self) -> Tuple[str, ...]:
        """Every stage some rule or dependency runs in."""
        used = {s for c in self.rules + self.dependencies for s in c.stages}
        return tuple(s for s in S.STAGES if s in used)

    def runs_at(self, stage: str) -> bool:
        return stage in self.stages()

    def candidates_for(self, node: fx.Node, stage: str) -> List[compiler.CompiledRule]:
        if node.op != "call_function":
            return []
        key = (node.target, stage)
        found = self._candidates.get(key)
        if found is None:
            found = self._candidates[key] = self._candidates_for_target(node.target, stage)
        return found

    def _candidates_for_target(self, target, stage: str) -> List[compiler.CompiledRule]:
        found = self._index.get(target, [])
        packet = getattr(target, "overloadpacket", None) if isinstance(target, torch._ops.OpOverload) else None
        if packet is not None and packet in self._index:
            found = sorted(found + self._index[packet], key=lambda c: (c.kind != "dependency", -c.priority, c.order))
        return [c for c in found if stage in c.stages]

    # ------------------------------------------------------------------ application

    def apply(self, gm: fx.GraphModule, graph_kind: str = "inference", report: Optional[Report] = None,
              recompile: bool = True, measure_copies: bool = False, subgraphs: bool = True,
              snapshots: bool = True, inductor: bool = True) -> Report:
        """Rewrite ``gm`` in place with the rules of stage ``graph_kind``.  ``recompile=False``
        leaves regenerating ``gm.code`` to the caller (Inductor recompiles after its own
        post-grad passes anyway); ``subgraphs=False`` leaves the subgraphs of higher-order ops
        alone (Inductor runs its post-grad passes on each of them itself).

        ``measure_copies`` (or the ``rewrite`` logger enabled for INFO, e.g. ``REWRITE_LOG=info``)
        fills ``report.copies``: what stock Inductor's reinplacing would leave of the graph as
        received, next to what it leaves after the rules.  It needs that graph as it was, so it
        is measured here, while the pass has it, and only when asked: it costs a simulation of
        Inductor's reinplacing that the rules themselves may not need.  ``snapshots`` fills
        ``report.before`` and ``report.after`` (the graph as plain data, for ``explain`` and
        diffs; graphs under 2,000 nodes), also turned on by the ``rewrite`` logger at INFO.
        ``inductor=False``: the graph runs op by op after the pass (the eager base), so the engine
        does not stop for what only Inductor's scheduler does (a loop whose results nobody reads)."""
        if graph_kind not in S.STAGES:
            raise ValueError(f"unknown stage {graph_kind!r}; stages: {', '.join(S.STAGES)}")
        with _gc_paused():
            return self._apply(gm, graph_kind, report or Report(graph=graph_kind), recompile, measure_copies,
                               subgraphs, snapshots or log.isEnabledFor(logging.INFO), inductor)

    def _apply(self, gm: fx.GraphModule, stage: str, report: Report, recompile: bool, measure_copies: bool,
               subgraphs: bool, snapshots: bool, inductor: bool = True) -> Report:
        started = time.perf_counter()
        snapshot = snapshots and len(gm.graph.nodes) < 2000
        report.before = GraphSnapshot.of(gm.graph) if snapshot else None
        report.ops_before = count_ops(gm.graph)
        post_grad = stage in S.POST_GRAD
        measure = post_grad and (measure_copies or log.isEnabledFor(logging.INFO)) \
            and len(gm.graph.nodes) <= COPY_MEASURE_LIMIT
        stock = None
        if measure:   # made before any rule runs, and shared with them (GraphFacts.seed_simulation)
            with _timed(report.seconds, "copy_measure"):
                stock = reinplace.simulate(gm, gm.graph, self.fact_tables.get("materialized"), lowered=inductor)
        final = None
        if any(stage in c.stages for c in self.rules + self.dependencies):
            for name, sub in (_subgraphs(gm) if subgraphs else []):
                self._apply_graph(sub, sub.graph, stage, f"{stage}/{name}", report, subgraph=True, inductor=inductor)
            final = self._apply_graph(gm, gm.graph, stage, stage, report, simulation=stock, inductor=inductor)
        if post_grad:
            repairs = (subgraph_constants.hoist_function_constants(gm) + operand_layouts.require_operand_layouts(gm)
                       + symbolic_offsets.name_offsets_by_sizes(gm)
                       + (subgraph_constants.wrapped_function_constants(gm) if inductor else []))
            for note in repairs:
                report.repairs.append(f"{stage}: {note}")
                log.info("%s: %s", stage, note)
        gm.graph.lint()
        if recompile:
            gm.recompile()
        report.after = GraphSnapshot.of(gm.graph) if snapshot else None
        report.ops_after = count_ops(gm.graph)
        report.copies_after = copy_count.copies(gm.graph)
        if measure:
            with _timed(report.seconds, "copy_measure"):
                if final is None:   # the ownership step, which would have made it, did not run
                    final = reinplace.simulate(gm, gm.graph, self.fact_tables.get("materialized"), lowered=inductor)
                ours = final.final_copies
            report.copies = CopyComparison(copy_count.total_bytes(stock.final_copies), copy_count.total_bytes(ours),
                                           len(stock.final_copies), len(ours),
                                           # judged only when a rule asked (the judgement is costly)
                                           [f"{d.node.name}: {d.unsafe}" for d in stock.unsafe()] if stock.judged
                                           else None)
            log.info("[%s] %s", stage, report.copies.describe())
        report.seconds["total"] = report.seconds.get("total", 0.0) + time.perf_counter() - started
        return report

    def _state(self, root, graph, stage, label, subgraph: bool = False, inductor: bool = True) -> _GraphState:
        facts = GraphFacts(graph, stage, root=root, materialized=self.fact_tables.get("materialized"),
                           lowered=inductor)
        aten = S.STAGES[stage].graph == "aten"
        legality = Legality(graph, self.fact_tables.get("materialized"), facts.original_writes, subgraph=subgraph,
                            lowered=inductor) \
            if aten and self.legality else None
        ctx = Context(root, graph, facts, self.fact_tables, stage, legality_enabled=legality is not None)
        left = (legality.functional_reading_differs() or aliases.shared_inputs(graph)) if legality is not None else ""
        return _GraphState(root, graph, stage, label, facts, legality, ctx, len(graph.nodes), left_to_inductor=left,
                           subgraph=subgraph, inductor=inductor)

    def _apply_graph(self, root: fx.GraphModule, graph: fx.Graph, stage: str, label: str, report: Report,
                     simulation=None, subgraph: bool = False, inductor: bool = True):
        """Run the rules of ``stage`` on one graph to a fixpoint; returns the simulation of
        Inductor's reinplacing on the final graph when the pass made one (else None).
        ``simulation``: one already made of the graph as it is now, to reuse; ``subgraph``: the
        graph is a higher-order op's function (its inputs are its operands)."""
        if stage in S.POST_GRAD:
            with _timed(report.seconds, "earlier_passes"):     # judged before our rules move anything
                lost = earlier_passes.input_updates_dropped(graph) or stale_reads.stopping_call(graph) \
                    or (not subgraph and functions_address_fresh_operands(root))
            if lost:
                raise EarlierPassError(f"{label}: {lost}")
        st = self._state(root, graph, stage, label, subgraph, inductor)
        st.facts.seed_simulation(simulation)
        if st.left_to_inductor:
            warn(report, f"{label}: left to Inductor as it is, but for copies of values: {st.left_to_inductor}; "
                          f"its functional reading is not the program's, so no other rewrite of it can be checked",
                  logging.INFO)
        records: Dict[Tuple[str, str], Candidate] = {}
        tiers = sorted({c.priority for c in self.rules + self.dependencies if stage in c.stages}, reverse=True)
        seen: Set[int] = set()
        fired_sweeps, stop = 0, False
        while not stop:
            changed = False
            for tier in tiers:
                while not stop:
                    report.iterations += 1
                    st, fired = self._sweep(st, tier, records, report)
                    if not fired:
                        break
                    changed = True
                    fired_sweeps += 1
                    fingerprint = graph_fingerprint(graph) if fired_sweeps >= CYCLE_WATCH_AFTER else None
                    if fingerprint in seen:
                        warn(report, f"{label}: rewrites cycle (the graph came back to an earlier form); stopped")
                        stop = True
                    elif fired_sweeps >= MAX_SWEEPS:
                        warn(report, f"{label}: no fixpoint after {MAX_SWEEPS} sweeps that rewrote it; stopped")
                        stop = True
                    if fingerprint is not None:
                        seen.add(fingerprint)
                if stop:
                    break
            if not changed:
                break
        report.candidates.extend(records.values())
        report.left_to_reference.extend(st.left_to_reference)
        for key, value in st.seconds.items():
            report.seconds[key] = report.seconds.get(key, 0.0) + value
        with _timed(report.seconds, "earlier_passes"):     # the checks of what Inductor's passes did or will do
            lost = stage in S.POST_GRAD and (
                st.left_to_inductor and reinplace.storage_addressed_write_lost(graph, st.facts.simulation(), subgraph,
                                                                              inductor)
                or st.legality is not None and reinplace.v1_clone_lost(graph, st.facts.simulation)
                or inductor and functionalized_calls.dropped_loop(graph))
        if lost:
            raise EarlierPassError(f"{label}: {lost}")
        if stage in S.POST_GRAD and st.legality is not None and not st.left_to_inductor:
            with _timed(report.seconds, "earlier_passes"):
                nets.repair_earlier_passes(st, report, self.strict, self._on_new_node(st))
            with _timed(report.seconds, "ownership"):
                return nets.own_inductor_reinplacing(st, report, self.strict, self._on_new_node(st))
        return None

    def _sweep(self, st: _GraphState, tier: int, records, report: Report):
        """One pass over the graph's nodes with the rules of priority ``tier``."""
        fired = False
        nodes, i = list(st.graph.nodes), 0
        while i < len(nodes):
            node, i = nodes[i], i + 1
            if node._erased:
                continue
            for rule in self.candidates_for(node, st.stage):
                if node._erased:
                    break
                if rule.priority != tier or rule.name in st.disabled:
                    continue
                started = time.perf_counter()
                cand, restored = self._try(rule, node, st)
                st.spent[rule.name] = st.spent.get(rule.name, 0.0) + time.perf_counter() - started
                if restored:
                    # the graph was rebuilt from a snapshot: same structure, new node objects;
                    # go on from the same position with fresh analyses (time spent and stopped
                    # rules carry over)
                    fresh = self._state(st.root, st.graph, st.stage, st.label, st.subgraph, st.inductor)
                    fresh.spent, fresh.disabled, fresh.seconds = st.spent, st.disabled, st.seconds
                    fresh.initial_size = st.initial_size
                    st, nodes = fresh, list(st.graph.nodes)
                    node = nodes[i - 1]
                if cand.fired:
                    report.candidates.append(cand)
                    report.bytes_removed += cand.bytes_removed
                    records.pop((rule.name, cand.node), None)
                    fired = True
                else:
                    records[(rule.name, cand.node)] = cand
                    if (cand.stopped_at in ("rewrite", "legality") and not st.left_to_inductor
                            and not (rule.shipped and rule.kind == "rule") and cand.line() not in report.warnings):
                        report.warnings.append(cand.line())   # once, though retried each sweep
                if st.spent[rule.name] > RULE_TIME_BUDGET:
                    st.disabled[rule.name] = "time"
                    warn(report, f"rule {rule.name} @ {rule.location} spent more than {RULE_TIME_BUDGET:.0f} s "
                                  f"on {st.label}; stopped there")
        return st, fired

    def _try(self, rule: compiler.CompiledRule, node: fx.Node, st: _GraphState) -> Tuple[Candidate, bool]:
        ctx = st.ctx
        cand = Candidate(rule.name, rule.location, node.name, st.label, stopped_at="match")
        reached = ["match"]
        ctx.reset(node)
        why: List[str] = []
        bindings: Dict[str, Any] = {}
        if not rule.match(node, bindings, why):
            return self._stop(cand, reached, "match", "; ".join(reversed(why)) or "pattern does not match"), False
        ctx.bindings = bindings
        path_note = ""
        try:
            if rule.path is not None:
                path, note = rule.path(ctx)
                if path is None:
                    return self._stop(cand, reached, "match", note), False
                path_note = path.note
                if rule.path_name:
                    ctx.bindings[rule.path_name] = path
                ctx.bindings[rule.path_target] = path.last
            if st.left_to_inductor and rule.kind != "dependency" and not _keeps_values(rule):
                reached.append("legality")
                return self._stop(cand, reached, "legality", f"graph left to Inductor: {st.left_to_inductor}"), False
            if rule.kind == "dependency":
                reached.append("where")
                mutated, detail = self._mutated_indices(rule, ctx)
                if not mutated:
                    return self._stop(cand, reached, "where", detail), False
                ctx.mutated_indices = mutated
            for stage, guard in rule.guards:
                reached.append(stage)
                ok, detail = guard(ctx)
                if ok and stage == "where":
                    cand.reason = detail           # why the rule applies, kept when it fires
                if not ok:
                    if path_note and stage == "where":
                        detail = f"{detail} ({path_note})"
                    return self._stop(cand, reached, stage, detail), False
        except Exception as e:  # noqa: BLE001 - a guard that cannot be evaluated stops the rule
            reason = f"could not evaluate: {type(e).__name__}: {e}"
            if rule.kind == "dependency" and rule.fallback == "error":
                raise DependencyError(f"dependency {rule.name} @ {rule.location} on {node.name}: {reason}; "
                                      f"without it the program would lose a mutation") from e
            return self._stop(cand, reached, reached[-1], reason), False
        reached.append("rewrite")
        return self._rewrite(rule, st, cand, reached)

    def _rewrite(self, rule, st: _GraphState, cand: Candidate, reached: List[str]) -> Tuple[Candidate, bool]:
        ctx = st.ctx
        bindings_before = dict(ctx.bindings)
        snapshot = Snapshot(st.root, st.graph) if rule.untrusted else None
        txn = Transaction(st.root, st.graph, strict=self.strict, on_new_node=self._on_new_node(st))
        ctx.txn = txn
        step = "rewrite"
        try:
            for run in rule.steps:
                run(ctx)
            if rule.order_check is not None:
                self._check_order(rule, ctx)
            txn.validate()
            if len(st.graph.nodes) > st.initial_size * GROWTH_FACTOR + GROWTH_SLACK:
                st.disabled[rule.name] = "growth"
                raise ActionError(f"the graph would grow past {len(st.graph.nodes)} nodes (it had "
                                  f"{st.initial_size}); {rule.name} is stopped on this graph")
            step = "legality"
            with _timed(st.seconds, "legality"):
                verdict = self._legal(st, txn)
            if not verdict:
                raise Refused(verdict.why)
            removed = tuple(n.name for n in txn.to_erase)
            created = [n for n in txn.created if n not in txn.to_erase]
            saved = _copy_bytes(txn.to_erase) - _copy_bytes(created)
            txn.commit()
        except BaseException as e:
            rewired = list(txn.old_args)
            restored = self._undo(txn, snapshot)
            if not restored:
                st.facts.note_rolled_back(rewired)
                if st.legality is not None:
                    st.legality.note_rolled_back(rewired)
            ctx.bindings = bindings_before
            reason = str(e) if isinstance(e, Refused) else f"{type(e).__name__}: {e}"
            if not isinstance(e, Exception):
                raise
            msg = f"{reason}; graph restored"
            if rule.kind == "dependency":
                if rule.fallback == "error":
                    raise DependencyError(f"dependency {rule.name} @ {rule.location} on {cand.node} could not be "
                                          f"applied: {msg}; without it the program would lose a mutation") from e
                if rule.fallback == "reference":
                    st.left_to_reference.append(f"dependency {rule.name} @ {rule.location} on {cand.node}: {reason}")
                    msg = f"{msg}; left to torch's reference pipeline (fallback reference)"
                else:
                    msg = f"{msg}; left to the compiler (fallback compiler)"
            # a shipped rule stopped by the check (or by its action) is the check doing its job:
            # debug; a user rule, or a dependency that fell back, is the user's to look at
            log.log(logging.DEBUG if rule.shipped and rule.kind == "rule" else logging.WARNING,
                    "%s %s @ %s on %s %s: %s", rule.kind, rule.name, rule.location, cand.node,
                    "refused by the legality check" if step == "legality" else "failed", msg)
            if step == "legality":
                reached.append("legality")
            return self._stop(cand, reached, step, msg), restored
        finally:
            ctx.txn = None
        reached.append("legality")
        if st.legality is not None:
            st.legality.note_committed(list(txn.old_args) + list(txn.created))
        st.facts.note_changed(list(txn.old_args) + list(txn.created))
        cand.stopped_at = None
        cand.reached = tuple(reached)
        cand.before = removed
        cand.after = tuple(n.name for n in created)
        cand.bytes_removed = saved
        log.info("fired %s @ %s on %s [%s]", rule.name, rule.location, cand.node, cand.graph)
        return cand, False

    def _on_new_node(self, st: _GraphState):
        def note(node: fx.Node) -> None:
            st.facts.note_new_node(node)
            if st.legality is not None:
                st.legality.note_new_node(node)

        return note

    def _legal(self, st: _GraphState, txn: Transaction):
        """The independent check: values and lowering on ATen graphs, the subgraph contract on
        Dynamo graphs."""
        if st.left_to_inductor:
            why = only_copies_values(txn.created, txn.to_erase, txn.old_args)
            return Verdict(False, f"graph left to Inductor, and {why}") if why else Verdict(True)
        if st.legality is not None:
            return st.legality.check(txn.created, txn.to_erase, txn.old_args)
        if S.STAGES[st.stage].graph == "torch":
            return _hop_contract(st.root, txn)
        if any(op_facts.written_nodes(n) for n in txn.created + txn.to_erase):
            return Verdict(False, "the legality check is off, so no write may be added or removed")
        return Verdict(True)

    @staticmethod
    def _undo(txn: Transaction, snapshot: Optional[Snapshot]) -> bool:
        """Roll back; when Python code edited the graph behind the transaction, restore the
        snapshot.  Returns whether the graph was rebuilt from it (node objects are new)."""
        txn.rollback()
        if snapshot is not None and not snapshot.matches():
            snapshot.restore()
            return True
        return False

    def _mutated_indices(self, rule, ctx: Context) -> Tuple[List[int], str]:
        list_eval, cond_eval, var = rule.mutates
        values, shown = list_eval(ctx)
        if not isinstance(values, (list, tuple)):
            raise EvalError(f"{shown} is not a list")
        out, details = [], []
        for i in range(len(values)):
            ctx.bindings[var] = i
            ok, d = cond_eval(ctx)
            (out if ok else details).append(i if ok else d)
        ctx.bindings.pop(var, None)
        if out:
            return out, ""
        return out, f"no element of {shown} is mutated" + (": " + "; ".join(details) if details else " (it is empty)")

    def _check_order(self, rule, ctx: Context) -> None:
        first_eval, relation, second_eval = rule.order_check
        var = rule.mutates[2]
        for i in ctx.mutated_indices:
            ctx.bindings[var] = i
            first, fd = first_eval(ctx)
            second, sd = second_eval(ctx)
            if not isinstance(first, fx.Node) or not isinstance(second, fx.Node):
                raise EvalError(f"order: {fd} or {sd} is not a node after the rewrite")
            ok = second < first if relation == "after" else first < second
            if not ok:
                raise EvalError(f"order violated: {fd} is not {relation} {sd}")
        ctx.bindings.pop(var, None)

    @staticmethod
    def _stop(cand: Candidate, reached: List[str], step: str, reason: str) -> Candidate:
        cand.stopped_at = step
        cand.reason = reason
        cand.reached = tuple(reached)
        trace_log.debug("%s", cand.line())
        return cand

def _hop_contract(root: fx.GraphModule, txn: Transaction):
    """After a dependency action on a Dynamo graph: no subgraph of a higher-order op it created
    writes its own inputs (the mutations left as data flow)."""
    for node in txn.live_created():
        for name, sub in hop_subgraphs(root, node):
            written = subgraph_written_placeholders(sub)
            if written:
                return Verdict(False, f"{name} of the rewritten {node.name} still writes its "
                                      f"input {sorted(p.name for p in written)[0]}")
    return Verdict(True)


def _copy_bytes(nodes: Iterable[fx.Node]):
    """Bytes the copies among ``nodes`` write (before they are erased)."""
    return copy_count.total_bytes([c for c in map(copy_count.copy_of, nodes) if c is not None])


# --------------------------------------------------------------------------- helpers


@contextlib.contextmanager
def _timed(seconds: Dict[str, float], key: str):
    """Add the block's wall time to ``seconds[key]``."""
    started = time.perf_counter()
    try:
        yield
    finally:
        seconds[key] = seconds.get(key, 0.0) + time.perf_counter() - started


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
    plain = (int, float, bool, str, type(None))

    def shape(a):
        if isinstance(a, fx.Node):
            return ("%", index.get(a, -1))
        if type(a) in plain:
            return type(a), a       # 1, 1.0 and True hash alike
        if isinstance(a, (list, tuple)):
            return tuple(shape(x) for x in a)
        if isinstance(a, dict):
            return tuple((k, shape(v)) for k, v in a.items())
        return repr(a)

    return hash(tuple((n.op, n.target if n.op == "call_function" else str(n.target), shape(n.args), shape(n.kwargs))
                      for n in graph.nodes))


def _keeps_values(rule: compiler.CompiledRule) -> bool:
    """Every action of ``rule`` only copies values (``value_copies``): it may run on a graph
    left to Inductor."""
    return bool(rule.steps) and all(s.entry is not None and s.entry.builtin and s.entry.name in VALUE_KEEPING_ACTIONS
                                    for s in rule.steps)
