"""The analyses behind the predicate vocabulary, for one FX graph.

Everything is computed lazily and locally (from a node's users, its fake-tensor metadata and the
op schema), so a query costs time proportional to the neighbourhood it looks at, not to the
graph: the engine can run to a fixpoint on 50k-node graphs in linear time.  The one global index
(storage key -> nodes) is built on first use and kept current by :meth:`note_new_node`; the
engine drops the whole object after a rollback.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Dict, Iterable, List, Optional

import torch
import torch.fx as fx
from torch.fx.experimental.symbolic_shapes import statically_known_true
from torch.multiprocessing.reductions import StorageWeakRef

from rewrite.analysis import mutation, regions
from rewrite.analysis.op_names import op_display_name, targets_match

_VIEW_SCATTERS = ("slice_scatter", "select_scatter", "diagonal_scatter", "as_strided_scatter")


def meta_value(node) -> Optional[torch.Tensor]:
    if not isinstance(node, fx.Node):
        return None
    val = node.meta.get("val", node.meta.get("example_value"))
    return val if isinstance(val, torch.Tensor) else None


def fake_args(a):
    """``a`` (an argument structure) with every node replaced by its fake value: a FakeTensor,
    or a SymInt for a symbolic size."""
    return torch.fx.node.map_aggregate(
        a, lambda n: n.meta.get("val", n.meta.get("example_value")) if isinstance(n, fx.Node) else n)


def is_view_scatter(node: fx.Node) -> bool:
    target = getattr(node, "target", None)
    return isinstance(target, torch._ops.OpOverload) and target.__name__.split(".")[0] in _VIEW_SCATTERS


class GraphFacts:
    def __init__(self, graph: fx.Graph, graph_kind: str = "inference"):
        self.graph = graph
        self.graph_kind = graph_kind
        self._storage: Dict[fx.Node, object] = {}
        self._by_storage: Optional[Dict[object, List[fx.Node]]] = None
        self.witness: Optional[str] = None   # detail of the last positive answer, for why-not traces

    # ------------------------------------------------------------------ storage and aliasing

    def storage_key(self, node) -> Optional[object]:
        if not isinstance(node, fx.Node):
            return None
        if node in self._storage:
            return self._storage[node]
        val = meta_value(node)
        key = None
        if val is not None:
            try:
                key = StorageWeakRef(val.untyped_storage())
            except (RuntimeError, NotImplementedError, TypeError):
                key = None
        if key is None:
            src = mutation.view_source(node)
            key = self.storage_key(src) if src is not None else ("node", node)
        self._storage[node] = key
        return key

    def _index(self) -> Dict[object, List[fx.Node]]:
        if self._by_storage is None:
            self._by_storage = defaultdict(list)
            for n in self.graph.nodes:
                if meta_value(n) is not None or mutation.view_source(n) is not None:
                    self._by_storage[self.storage_key(n)].append(n)
        return self._by_storage

    def note_new_node(self, node: fx.Node) -> None:
        if self._by_storage is not None and (meta_value(node) is not None or mutation.view_source(node) is not None):
            self._by_storage[self.storage_key(node)].append(node)

    def aliases(self, node: fx.Node) -> List[fx.Node]:
        """Every live node sharing ``node``'s storage, ``node`` included."""
        key = self.storage_key(node)
        return [n for n in self._index().get(key, [node]) if n.graph is self.graph and not n._erased] or [node]

    def same_storage(self, a, b) -> bool:
        ka, kb = self.storage_key(a), self.storage_key(b)
        return ka is not None and ka == kb

    def is_view(self, x) -> bool:
        if not isinstance(x, fx.Node):
            return False
        src = mutation.view_source(x)
        return src is not None and self.same_storage(src, x)

    def views_of(self, x: fx.Node, stop: Optional[fx.Node] = None) -> List[fx.Node]:
        """x and the nodes derived from it by view ops, transitively (not through ``stop``)."""
        out, stack = [], [x]
        while stack:
            n = stack.pop()
            out.append(n)
            stack.extend(u for u in n.users if u is not stop and mutation.view_source(u) is n)
        return out

    # ------------------------------------------------------------------ uses and liveness

    def used_after(self, x, n, exclude: Iterable[fx.Node] = ()) -> bool:
        if not isinstance(x, fx.Node):
            return False
        excluded = set(exclude)
        for v in self.views_of(x, stop=n):
            for u in v.users:
                if u is not n and u not in excluded and (u.op == "output" or n < u) \
                        and mutation.view_source(u) is not v:
                    self.witness = f"{u.name} reads {v.name}"
                    return True
        return False

    def alias_used_between(self, x, a, b, exclude: Iterable[fx.Node] = ()) -> bool:
        if not isinstance(x, fx.Node):
            return False
        excluded = set(exclude)
        for alias in self.aliases(x):
            for u in alias.users:
                if u in excluded or mutation.view_source(u) is alias:
                    continue
                after_a = u.op == "output" or a < u
                before_b = b is None or (u.op != "output" and u < b)
                if after_a and before_b:
                    self.witness = f"{u.name} ({_op_name(u)}) reads {alias.name}"
                    return True
        return False

    # ------------------------------------------------------------------ copy-back epilogues

    def copy_back(self, base, value=None) -> Optional[fx.Node]:
        """The last ``copy_(dst, src)`` with dst ``base`` or a view of it (and src ``value`` when
        given)."""
        if not isinstance(base, fx.Node):
            return None
        found = None
        for v in self.views_of(base):
            for u in v.users:
                if mutation.is_copy(u) and u.args[0] is v and (value is None or u.args[1] is value):
                    if found is None or found < u:
                        found = u
        return found

    # ------------------------------------------------------------------ materialization

    def realized(self, x, materialized: Dict[str, frozenset] = None) -> bool:
        if not isinstance(x, fx.Node):
            return False
        if x.op in ("placeholder", "get_attr"):
            return True
        extern = (materialized or {}).get("extern", frozenset())
        if x.op == "call_function" and extern and targets_match(x.target, extern):
            return True
        for u in x.users:
            if u.op == "output" or x in mutation.written_operands(u):
                return True
        return False

    # ------------------------------------------------------------------ layout and memory

    def same_layout(self, a, b) -> bool:
        va, vb = meta_value(a), meta_value(b)
        if va is None or vb is None:
            return False
        return (va.dtype == vb.dtype and _same_ints(va.shape, vb.shape)
                and _same_ints(va.stride(), vb.stride()) and va.device == vb.device)

    def region(self, x) -> Optional[regions.Region]:
        if is_view_scatter(x):
            return regions.scatter_destination(x, self.storage_key)
        return regions.region_of_node(x, self.storage_key)

    def may_overlap(self, a, b) -> bool:
        if not isinstance(a, fx.Node) or not isinstance(b, fx.Node):
            return False
        target_b = b.args[0] if is_view_scatter(b) else b
        target_a = a.args[0] if is_view_scatter(a) else a
        if not self.same_storage(target_a, target_b):
            return False
        ra, rb = self.region(a), self.region(b)
        if ra is None or rb is None:
            self.witness = "no layout metadata"
            return True
        answer = regions.may_overlap(ra, rb)
        if answer:
            self.witness = f"{a.name} and {b.name} share storage"
        return answer

    def operands_overlap_write(self, u) -> bool:
        """Some operand of ``u`` other than the one it writes shares memory with what ``u``
        writes (for a view scatter: its destination region; otherwise its whole first operand)."""
        if not isinstance(u, fx.Node) or u.op != "call_function" or not u.args:
            return False
        written = u.args[0]
        others = [u.args[1]] if is_view_scatter(u) else list(u.args[1:]) + list(u.kwargs.values())
        for other in mutation.nodes_in(others):
            if other is written:
                self.witness = f"{u.name} reads {other.name}, which it writes"
                return True
            if self.same_storage(other, written) and self.may_overlap(other, u if is_view_scatter(u) else written):
                self.witness = f"{other.name} overlaps what {u.name} writes"
                return True
        return False

    def undoes_view(self, w, v) -> bool:
        """Applying view ``v`` to its source and then view ``w`` to the result gives back the
        source's exact layout (sizes, strides and offset): ``w`` is the inverse of ``v``.
        Decided by running both view ops on the source's fake tensor."""
        if not (isinstance(w, fx.Node) and isinstance(v, fx.Node)) or not v.args:
            return False
        if mutation.view_source(w) is None or mutation.view_source(v) is None:
            return False
        source = meta_value(v.args[0])
        fake_mode = getattr(source, "fake_mode", None)
        if fake_mode is None:
            return False
        try:
            with fake_mode:
                once = v.target(source, *fake_args(v.args[1:]), **fake_args(v.kwargs))
                back = w.target(once, *fake_args(w.args[1:]), **fake_args(w.kwargs))
        except Exception:  # the ops do not compose on these shapes: not an inverse
            return False
        same = (_same_ints(back.shape, source.shape) and _same_ints(back.stride(), source.stride())
                and statically_known_true(back.storage_offset() == source.storage_offset()))
        if not same:
            self.witness = f"{w.name} after {v.name} gives {tuple(back.shape)}/{tuple(back.stride())}"
        return same

    def internal_overlap(self, x) -> bool:
        r = self.region(x)
        return True if r is None else regions.has_internal_overlap(r)

    def numel(self, x):
        v = meta_value(x)
        return v.numel() if v is not None else 0

    def nbytes(self, x) -> int:
        v = meta_value(x)
        if v is None:
            return 0
        try:
            return int(v.numel()) * v.element_size()
        except (TypeError, RuntimeError):
            return 0

    # ------------------------------------------------------------------ kinds

    @staticmethod
    def is_input(x) -> bool:
        return isinstance(x, fx.Node) and x.op == "placeholder"

    @staticmethod
    def is_const(x) -> bool:
        if isinstance(x, (list, tuple)):
            return all(GraphFacts.is_const(v) for v in x)
        return not isinstance(x, fx.Node)

    # ------------------------------------------------------------------ autograd

    def saved_for_backward(self, x, table: Dict[str, frozenset]) -> bool:
        if self.graph_kind not in ("forward", "joint") or not isinstance(x, fx.Node) or not table:
            return False
        keeps_output = table.get("output", frozenset()) | table.get("both", frozenset())
        keeps_input = table.get("input", frozenset()) | table.get("both", frozenset())
        if x.op == "call_function" and targets_match(x.target, keeps_output):
            self.witness = f"{x.name} ({_op_name(x)}) keeps its output for backward"
            return True
        for u in x.users:
            if u.op == "call_function" and targets_match(u.target, keeps_input):
                self.witness = f"{u.name} ({_op_name(u)}) keeps its input {x.name} for backward"
                return True
        return False

    # ------------------------------------------------------------------ subgraphs

    def subgraph_mutates(self, root: fx.GraphModule, subgraph_node, operand) -> bool:
        """Does the subgraph passed to a higher-order op through ``subgraph_node`` write into the
        placeholder that receives ``operand``?"""
        if not isinstance(subgraph_node, fx.Node) or subgraph_node.op != "get_attr":
            return False
        sub = getattr(root, subgraph_node.target, None)
        hops = [u for u in subgraph_node.users if u.op == "call_function"]
        if not isinstance(sub, fx.GraphModule) or not hops:
            return False
        positions = [i for i, v in enumerate(hop_operands(hops[0])) if v is operand]
        placeholders = [n for n in sub.graph.nodes if n.op == "placeholder"]
        written = subgraph_written_placeholders(sub)
        return any(p < len(placeholders) and placeholders[p] in written for p in positions)


def hop_operands(hop: fx.Node) -> List:
    """The flattened tensor operands a higher-order op passes to its subgraphs' placeholders:
    every list/tuple argument, in order (``while_loop``: carried + captured; ``cond``: operands)."""
    out = []
    for a in hop.args:
        if isinstance(a, (list, tuple)):
            out.extend(a)
    return out


def subgraph_written_placeholders(sub: fx.GraphModule) -> set:
    """Placeholders of ``sub`` written by it, directly, through a view, or inside a nested
    higher-order op's subgraph."""
    facts = GraphFacts(sub.graph)
    placeholders = [n for n in sub.graph.nodes if n.op == "placeholder"]
    written_nodes = set()
    for n in sub.graph.nodes:
        written_nodes.update(mutation.written_operands(n))
        if n.op == "call_function" and isinstance(n.target, torch._ops.HigherOrderOperator):
            for attr in n.args:
                if isinstance(attr, fx.Node) and attr.op == "get_attr":
                    inner = getattr(sub, attr.target, None)
                    if isinstance(inner, fx.GraphModule):
                        inner_written = subgraph_written_placeholders(inner)
                        inner_ph = [p for p in inner.graph.nodes if p.op == "placeholder"]
                        for pos, operand in enumerate(hop_operands(n)):
                            if pos < len(inner_ph) and inner_ph[pos] in inner_written and isinstance(operand, fx.Node):
                                written_nodes.add(operand)
    out = set()
    for p in placeholders:
        if any(facts.same_storage(w, p) or w is p for w in written_nodes):
            out.add(p)
    return out


def _same_ints(a, b) -> bool:
    if len(a) != len(b):
        return False
    return all(statically_known_true(x == y) for x, y in zip(a, b))


def _op_name(node: fx.Node) -> str:
    return op_display_name(node.target)
