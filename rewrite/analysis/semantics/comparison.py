"""Comparing what graphs compute: the reference of the legality check.

:class:`Comparison` compares the graph before a transaction with the graph after it,
event-driven: only nodes that read changed values or changed memory are evaluated, so checking a
local rewrite costs time proportional to what it touches, not to the graph.
:func:`observe_graph` evaluates a whole graph, for comparing two graphs over a shared term table.
"""
from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass
from typing import Dict, Iterable, List, Optional, Set

import torch.fx as fx

from rewrite.analysis.semantics import layout_maps as lm
from rewrite.analysis.facts import op_facts
from rewrite.analysis.facts.fake import fake_value
from rewrite.analysis.facts.op_facts import op_display_name
from rewrite.analysis.semantics.terms import Terms
from rewrite.analysis.semantics.aliases import AliasIndex
from rewrite.analysis.semantics.evaluation import Divergence, Evaluator, GraphView, _State


# --------------------------------------------------------------------------- comparison


class Comparison:
    """Compares ``before`` and ``after`` (two views of one graph) from the nodes a transaction
    touched onwards.  ``run()`` returns None when every observation (each output, the final
    content of each graph input) is the same term in both, else a :class:`Divergence`."""

    def __init__(self, before: GraphView, after: GraphView, changed: Iterable[fx.Node],
                 index: AliasIndex, terms: Optional[Terms] = None):
        self.index = index
        self.states = (_State(before), _State(after))
        self.ev = Evaluator(terms or Terms(), index, self.states, on_track=self._push_readers)
        self.queue: List = []
        self.queued: Set[fx.Node] = set()
        self.first_difference: Optional[Divergence] = None
        self._counter = itertools.count()
        for node in changed:
            self.push(node)

    def push(self, node: fx.Node) -> None:
        if node not in self.queued:
            self.queued.add(node)
            heapq.heappush(self.queue, (node._sort_key, next(self._counter), node))

    def _push_readers(self, root: fx.Node, after: fx.Node) -> None:
        for alias in self.index.aliases(root):
            for user in alias.users:
                if user.op == "output" or after < user:
                    self.push(user)

    def run(self) -> Optional[Divergence]:
        ev, (sb, sa) = self.ev, self.states
        while self.queue:
            _, _, node = heapq.heappop(self.queue)
            b = ev.evaluate(sb, node) if sb.view.has(node) else None
            a = ev.evaluate(sa, node) if sa.view.has(node) else None
            if b is not None and b[1] is not None:
                sb.values[node] = b[1]
            if a is not None and a[1] is not None:
                sa.values[node] = a[1]
            if b is None or a is None:
                self._push_users(node)
                continue
            (ops_b, val_b), (ops_a, val_a) = b, a
            if ops_b != ops_a:
                if node.op == "output":
                    return Divergence(self._explain_output(ops_b, ops_a), node)
                if self.first_difference is None:
                    self.first_difference = Divergence(self._explain_read(node), node)
            if val_b != val_a:
                self._push_users(node)
        return self._compare_inputs()

    def _push_users(self, node: fx.Node) -> None:
        for user in node.users:
            self.push(user)
        if fake_value(node) is not None and self.index.root(node) is node:
            self._push_readers(node, node)          # readers through views of it

    def _compare_inputs(self) -> Optional[Divergence]:
        sb, sa = self.states
        for root in sorted(self.ev.tracked):
            if root.op != "placeholder":
                continue
            fb, fa = self.ev.final_content(sb, root), self.ev.final_content(sa, root)
            if fb is None or fa is None or fb == fa:
                continue
            writes_before = (sb.writes.get(root, []) + [w for w, _, _ in sb.pending.get(root, [])]
                             + [w for w in self.index.writers(root) if sb.view.has(w) and w not in sb.view.old_args])
            detail = f"; first difference: {self.first_difference.message}" if self.first_difference else ""
            if not writes_before:
                return Divergence(f"writes into input `{root.name}`, which the program never mutates", root)
            return Divergence(f"leaves input `{root.name}` with a different final value{detail}", root)
        return None

    # ---------------------------------------------------------------- explanations

    def _explain_read(self, node: fx.Node) -> str:
        args, kwargs = self.states[1].view.args(node)
        for a in _flat_nodes((args, kwargs)):
            root = self.index.root(a)
            writes = [w for w in self.states[1].writes.get(root, []) if w < node]
            if writes:
                writer = writes[-1]
                return (f"`{node.name}` ({_op(node)}) reads `{a.name}`{_describe_view(a)} after "
                        f"`{writer.name}` ({_op(writer)}) overwrote it")
        return f"`{node.name}` ({_op(node)}) reads a different value than before"

    def _explain_output(self, ops_b: tuple, ops_a: tuple) -> str:
        outs_b, outs_a = _output_items(ops_b), _output_items(ops_a)
        detail = f"; first difference: {self.first_difference.message}" if self.first_difference else ""
        for i, (x, y) in enumerate(zip(outs_b, outs_a)):
            if x != y:
                return f"output {i} would change{detail}"
        return f"the outputs would change{detail}"


def _output_items(ops: tuple) -> tuple:
    """The per-output operand terms of an output node (``return (a, b)``)."""
    args = ops[0]                                       # ("list", (outputs,))
    first = args[1][0] if args[0] == "list" and args[1] else args
    return first[1] if isinstance(first, tuple) and first and first[0] == "list" else (first,)


def _flat_nodes(a) -> List[fx.Node]:
    if isinstance(a, fx.Node):
        return [a]
    if isinstance(a, (list, tuple)):
        return [n for x in a for n in _flat_nodes(x)]
    if isinstance(a, dict):
        return [n for x in a.values() for n in _flat_nodes(x)]
    return []


def _op(node: fx.Node) -> str:
    return op_display_name(node.target) if node.op == "call_function" else node.op


def _describe_view(node: fx.Node) -> str:
    val = fake_value(node)
    if val is None or op_facts.alias_source(node) is None:
        return ""
    return f" (elements {tuple(lm.shape_key(val.shape))} at offset {lm.dim_key(val.storage_offset())})"


# --------------------------------------------------------------------------- whole graphs


@dataclass
class Observation:
    """What a whole graph computes: the term of each output and the final content of each
    graph input, over a term table shared with the graphs it is compared with."""

    outputs: tuple
    inputs: Dict[str, int]
    terms: Terms

    def __eq__(self, other) -> bool:
        return isinstance(other, Observation) and self.outputs == other.outputs and self.inputs == other.inputs

    def changed_roots(self, other: "Observation") -> Set[str]:
        return {k for k in set(self.inputs) | set(other.inputs) if self.inputs.get(k) != other.inputs.get(k)}

    def difference(self, other: "Observation") -> str:
        for i, (a, b) in enumerate(zip(self.outputs, other.outputs)):
            if a != b:
                return f"output {i} differs"
        changed = sorted(self.changed_roots(other))
        return f"input {changed[0]} ends differently" if changed else "no difference"


def observe_graph(graph: fx.Graph, terms: Terms) -> Observation:
    """Evaluate every node of ``graph`` (FX order) and return its observations.  Graphs compared
    with each other must share ``terms``."""
    state = _State(GraphView("whole"))
    ev = Evaluator(terms, AliasIndex(graph), [state])
    output = None
    for node in graph.nodes:
        operands, value = ev.evaluate(state, node)
        if value is not None:
            state.values[node] = value
        if node.op == "output":
            output = operands
    inputs = {}
    for node in graph.nodes:
        if node.op == "placeholder" and node in ev.tracked:
            inputs[str(node.target)] = ev.final_content(state, node)
    return Observation(output, inputs, terms)
