"""The analyses behind the predicate vocabulary, for one FX graph during one pass.

Everything is computed lazily and locally (from a node's users, its fake-tensor metadata and the
op schema), so a query costs time proportional to the neighbourhood it looks at, not to the
graph: the engine can run to a fixpoint on 50k-node graphs in linear time.  The global indexes
(storage -> nodes, Inductor's simulated decisions) are built on first use and kept current
through :meth:`note_new_node` and :meth:`note_changed`.

Predicates return a :class:`~rewrite.analysis.facts.verdict.Verdict`: the answer and what was found.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Dict, Iterable, List, Optional, Set, Tuple

import torch
import torch.fx as fx
from torch.fx.experimental.symbolic_shapes import statically_known_true
from torch.multiprocessing.reductions import StorageWeakRef

from rewrite.analysis.inductor import earlier_passes, outputs
from rewrite.analysis.semantics import layout_maps
from rewrite.analysis.facts import functionalized, mutation
from rewrite.analysis.facts import op_facts
from rewrite.analysis.semantics import overlap
from rewrite.analysis.semantics import regions
from rewrite.analysis.semantics import repeats
from rewrite.analysis.facts.op_facts import is_materialized_copy
from rewrite.analysis.facts.fake import fake_mode_of, fake_value
from rewrite.analysis.inductor.lowering import LoweringModel
from rewrite.analysis.facts.op_facts import op_display_name, targets_match
from rewrite.analysis.facts.verdict import Verdict, no, yes
from rewrite.analysis.inductor_pass_facts import InductorPassFacts


def with_views(nodes: Iterable[fx.Node]) -> Set[fx.Node]:
    """``nodes`` and the nodes viewing them (or their in-place results), transitively; in ATen
    graphs and in Dynamo's (``mutation.view_source``)."""
    out: Set[fx.Node] = set()
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if n in out or n._erased:
            continue
        out.add(n)
        stack.extend(op_facts.direct_views(n))
        stack.extend(u for u in n.users if mutation.view_source(u) is n)
    return out


class GraphFacts(InductorPassFacts):
    def __init__(self, graph: fx.Graph, graph_kind: str = "inference", root: Optional[fx.GraphModule] = None,
                 materialized: Optional[Dict] = None, lowered: bool = True):
        self.graph = graph
        self.graph_kind = graph_kind
        self.root = root
        self.materialized = materialized or {}
        self.lowered = lowered             # Inductor lowers the graph (False: the eager base)
        self._storage: Dict[fx.Node, object] = {}
        self._by_storage: Optional[Dict[object, List[fx.Node]]] = None
        # writes present when the pass started: AOTAutograd's copy-back epilogue
        self.original_writes = {n for n in graph.nodes if n.op == "call_function" and op_facts.written_nodes(n)}
        self._simulation = None
        self._dirty: Set[object] = set()   # storages rewired since the simulation was made
        self._lowering = None
        # facts about the whole graph (which writes reach which reads), made on first use and
        # dropped on any change; never kept while a transaction is editing the graph
        self._whole: Dict[str, object] = {}
        self.editing = False

    def _whole_graph(self, key: str, make):
        """``make()``, kept until the graph next changes: a question asked for every copy-back
        would otherwise walk the whole graph each time (quadratic in an optimizer's graph)."""
        if self.editing:
            self._whole.clear()
            return make()
        if key not in self._whole:
            self._whole[key] = make()
        return self._whole[key]

    # ------------------------------------------------------------------ bookkeeping

    def note_new_node(self, node: fx.Node) -> None:
        self._whole.clear()
        if self._by_storage is not None and (fake_value(node) is not None or mutation.view_source(node) is not None):
            self._by_storage[self.storage_key(node)].append(node)
        if self._lowering is not None:
            self._lowering.note_new_node(node)

    def lowering_model(self, rewired: Iterable[fx.Node] = ()) -> LoweringModel:
        """The lowering model of the graph as it is now; ``rewired``: nodes an open transaction
        has rewired since the model last looked (their storage is looked up again)."""
        if self._lowering is None:
            self._lowering = LoweringModel(self.graph, self.materialized, lowered=self.lowered)
        else:
            self._lowering.forget(with_views(rewired))
        return self._lowering

    def note_rolled_back(self, rewired: Iterable[fx.Node]) -> None:
        """A transaction was undone: what was looked up while it was open is stale."""
        self._whole.clear()
        stale = with_views(rewired)
        self._restore_storage(stale)
        if self._lowering is not None:
            self._lowering.forget(stale)

    def _restore_storage(self, stale) -> Set[object]:
        """Look the storage of ``stale`` nodes up again and move them in the index (in place:
        a rebuild per rewrite makes a pass quadratic).  Returns the old and new keys."""
        keys: Set[object] = set()
        for n in stale:
            old = self._storage.pop(n, None)
            keys.add(old)
            if self._by_storage is not None and old is not None and n in self._by_storage.get(old, ()):
                self._by_storage[old].remove(n)
            if fake_value(n) is not None or mutation.view_source(n) is not None:
                new = self.storage_key(n)
                keys.add(new)
                if self._by_storage is not None:
                    self._by_storage[new].append(n)
        keys.discard(None)
        return keys

    def note_changed(self, rewired: Iterable[fx.Node] = ()) -> None:
        """A transaction committed: drop what was derived from the old arguments of the
        ``rewired`` nodes (and of views of them), and note the storages it touched: decisions
        of the simulation about other storages stay valid."""
        self._whole.clear()
        stale = with_views(rewired)
        if stale and self._simulation is not None and not self._simulation.judged:
            self._simulation = None          # its judgement compares against the graph as it was
        keys = self._restore_storage(stale)
        if self._simulation is not None:
            self._dirty |= keys
        if self._lowering is not None:
            self._lowering.forget(stale)

    # ------------------------------------------------------------------ storage and aliasing

    def storage_key(self, node) -> Optional[object]:
        if not isinstance(node, fx.Node):
            return None
        if node in self._storage:
            return self._storage[node]
        # through views and in-place results first: a pass that rewires a view leaves its fake
        # value pointing at the old storage
        src = op_facts.alias_source(node) or mutation.view_source(node)
        if src is not None and src is not node:
            key = self.storage_key(src)
        else:
            val = fake_value(node)
            key = None
            if val is not None:
                try:
                    # a plain tuple: StorageWeakRef's own == fails against anything but its kind
                    key = ("storage", StorageWeakRef(val.untyped_storage()).cdata)
                except (RuntimeError, NotImplementedError, TypeError):
                    key = None
            if key is None:
                key = ("node", node)
        self._storage[node] = key
        return key

    def _index(self) -> Dict[object, List[fx.Node]]:
        if self._by_storage is None:
            self._by_storage = defaultdict(list)
            for n in self.graph.nodes:
                if fake_value(n) is not None or mutation.view_source(n) is not None:
                    self._by_storage[self.storage_key(n)].append(n)
        return self._by_storage

    def aliases(self, node: fx.Node) -> List[fx.Node]:
        """Every live node sharing ``node``'s storage, ``node`` included."""
        key = self.storage_key(node)
        return [n for n in self._index().get(key, [node]) if n.graph is self.graph and not n._erased] or [node]

    def same_storage(self, a, b) -> Verdict:
        ka, kb = self.storage_key(a), self.storage_key(b)
        return Verdict(ka is not None and ka == kb)

    def is_view(self, x) -> Verdict:
        if not isinstance(x, fx.Node):
            return no(f"{x!r} is not a node")
        src = mutation.view_source(x)
        return Verdict(src is not None and bool(self.same_storage(src, x)), f"{x.name} views {src.name}" if src else "")

    def views_of(self, x: fx.Node, stop: Optional[fx.Node] = None) -> List[fx.Node]:
        """x and the nodes derived from it by view ops, transitively (not through ``stop``)."""
        out, stack = [], [x]
        while stack:
            n = stack.pop()
            out.append(n)
            stack.extend(u for u in n.users if u is not stop and mutation.view_source(u) is n)
        return out

    # ------------------------------------------------------------------ uses and liveness

    def used_after(self, x, n, exclude: Iterable[fx.Node] = ()) -> Verdict:
        if not isinstance(x, fx.Node):
            return no(f"{x!r} is not a node")
        excluded = set(exclude)
        for v in self.views_of(x, stop=n):
            for u in v.users:
                if u is not n and u not in excluded and (u.op == "output" or n < u) \
                        and mutation.view_source(u) is not v:
                    return yes(f"{u.name} reads {v.name}")
        return no()

    def alias_used_between(self, x, a, b, exclude: Iterable[fx.Node] = ()) -> Verdict:
        if not isinstance(x, fx.Node):
            return no(f"{x!r} is not a node")
        excluded = set(exclude)
        for alias in self.aliases(x):
            for u in alias.users:
                if u in excluded or mutation.view_source(u) is alias:
                    continue
                after_a = u.op == "output" or a < u
                before_b = b is None or (u.op != "output" and u < b)
                if after_a and before_b:
                    return yes(f"{u.name} ({_op_name(u)}) reads {alias.name}")
        return no()

    # ------------------------------------------------------------------ copy-back epilogues

    def copy_back(self, base, value=None) -> Optional[fx.Node]:
        """The last ``copy_(dst, src)`` with dst ``base``, a view of it, or (without ``value``)
        a tensor ``base`` is a view of, which writes ``base`` too (and src ``value`` when
        given)."""
        if not isinstance(base, fx.Node):
            return None
        found = None
        targets = self.views_of(base)
        if value is None:
            source = mutation.view_source(base)
            while source is not None:
                targets.append(source)
                source = mutation.view_source(source)
        for v in targets:
            for u in v.users:
                if mutation.is_copy(u) and u.args[0] is v and (value is None or u.args[1] is value):
                    if found is None or found < u:
                        found = u
        return found

    def _overwritten_read(self, n: fx.Node):
        """``(alias read, original write)`` when ``n`` reads, through an alias not derived from
        the write, memory an original (epilogue) write changed before ``n``."""
        if not isinstance(n, fx.Node) or n.op not in ("call_function", "output"):
            return None
        writes = self._whole_graph("writes_by_storage", self._original_writes_by_storage)
        for operand in mutation.nodes_in((n.args, n.kwargs)):
            if fake_value(operand) is None:
                continue
            chain = [operand]
            while op_facts.alias_source(chain[-1]) is not None:
                chain.append(op_facts.alias_source(chain[-1]))
            root = chain[-1]
            if root.op != "placeholder":
                continue
            for w in writes.get(self.storage_key(root), ()):
                if not (w < n) or w in chain or w is n:
                    continue
                if any(op_facts.alias_source(c) is w for c in chain):
                    continue
                return operand, w
        return None

    def _original_writes_by_storage(self) -> Dict[object, List[fx.Node]]:
        """The live original writes into each storage, in graph order."""
        out: Dict[object, List[fx.Node]] = defaultdict(list)
        for w in sorted(w for w in self.original_writes if not w._erased):
            for key in dict.fromkeys(self.storage_key(d) for d in op_facts.written_nodes(w)):
                if key is not None:
                    out[key].append(w)
        return out

    def reads_overwritten_input(self, n) -> Verdict:
        found = self._overwritten_read(n)
        if found is None:
            return no()
        operand, w = found
        return yes(f"{n.name} reads {operand.name} after {w.name} overwrote it")

    def overwriting_write(self, n) -> Optional[fx.Node]:
        found = self._overwritten_read(n)
        return found[1] if found else None

    # ------------------------------------------------------------------ earlier passes

    def output_roles(self) -> List[str]:
        """What AOTAutograd does with each output of this graph (``outputs.output_roles``)."""
        return outputs.output_roles(self.graph, self.graph_kind)

    def joint_output_groups(self):
        """Which outputs shared memory before Inductor's passes (``earlier_passes.joint_output_groups``;
        None where not recorded, or for a graph it does not describe)."""
        return earlier_passes.joint_output_groups() if self.graph_kind in ("inference", "forward") else None

    def output_bases(self) -> List[Optional[fx.Node]]:
        """The input each output AOTAutograd regenerates is regenerated from (``outputs.output_bases``)."""
        return outputs.output_bases(self.graph, self.graph_kind)

    def late_reads(self, w) -> List[earlier_passes.LateRead]:
        """The reads after the original write ``w`` that the program made before it."""
        if not isinstance(w, fx.Node) or w not in self.original_writes:
            return []
        return [read for read, before in self._late_reads_with_writes() if w in before]

    def all_late_reads(self) -> List:
        """Every read after an original write that the program made before it."""
        return [read for read, _ in self._late_reads_with_writes()]

    def _late_reads_with_writes(self) -> List:
        return self._whole_graph("late_reads", lambda: list(earlier_passes.late_reads_with_writes(
            self.graph, self.original_writes, self.output_roles())))

    def overwrites_later_read(self, w) -> Verdict:
        reads = self.late_reads(w)
        if not reads:
            return no()
        return yes("; ".join(r.describe() for r in reads) + f": {earlier_passes.CULPRIT}")

    # ------------------------------------------------------------------ materialization

    @staticmethod
    def is_materialized(x) -> Verdict:
        if isinstance(x, fx.Node) and is_materialized_copy(x):
            return yes(f"{x.name} is a materialized copy")
        if not isinstance(x, fx.Node) or x.op != "call_function" or not op_facts.is_copy_target(x.target):
            return no()
        dst = x.args[0]
        fresh = isinstance(dst, fx.Node) and dst.op == "call_function" and dst.target is torch.ops.aten.empty_like.default
        return Verdict(fresh, f"{x.name} copies into the fresh {dst.name}" if fresh else "")

    def realized(self, x, materialized: Dict[str, frozenset] = None) -> Verdict:
        if not isinstance(x, fx.Node):
            return no(f"{x!r} is not a node")
        if x.op in ("placeholder", "get_attr"):
            return yes(f"{x.name} is a graph input")
        extern = (materialized or {}).get("extern", frozenset())
        if x.op == "call_function" and (extern and targets_match(x.target, extern) or is_materialized_copy(x)):
            return yes(f"{x.name} ({_op_name(x)}) is an extern kernel")
        for u in x.users:
            if u.op == "output":
                return yes(f"{x.name} is an output")
            if x in mutation.written_operands(u):
                return yes(f"{u.name} writes {x.name}")
        return no(f"{x.name} ({_op_name(x)}) can be fused")

    # ------------------------------------------------------------------ layout and memory

    def same_layout(self, a, b) -> Verdict:
        va, vb = fake_value(a), fake_value(b)
        if va is None or vb is None:
            return no("no layout metadata")
        same = (va.dtype == vb.dtype and _same_ints(va.shape, vb.shape)
                and _same_ints(va.stride(), vb.stride()) and va.device == vb.device)
        return Verdict(same, "" if same else f"{tuple(va.shape)}/{tuple(va.stride())} vs {tuple(vb.shape)}/{tuple(vb.stride())}")

    def region(self, x) -> Optional[regions.Region]:
        if op_facts.is_view_scatter(x):
            return regions.scatter_destination(x, self.storage_key)
        return regions.region_of_node(x, self.storage_key)

    def may_overlap(self, a, b) -> Verdict:
        if not isinstance(a, fx.Node) or not isinstance(b, fx.Node):
            return no()
        target_b = b.args[0] if op_facts.is_view_scatter(b) else b
        target_a = a.args[0] if op_facts.is_view_scatter(a) else a
        if not self.same_storage(target_a, target_b):
            return no("different storages")
        ra, rb = self.region(a), self.region(b)
        if ra is None or rb is None:
            return yes("no layout metadata")
        answer = overlap.may_overlap(ra, rb)
        return Verdict(answer, f"{a.name} and {b.name} share storage" if answer else "disjoint regions")

    def operands_overlap_write(self, u) -> Verdict:
        """Some operand of ``u`` other than the one it writes shares memory with what ``u``
        writes (for a view scatter: its destination region; otherwise its whole first operand)."""
        if functionalized.is_any_functionalized_call(u) or functionalized.is_functionalized_hop_v2(u):
            return self._reads_overlap_writes(u)
        if not isinstance(u, fx.Node) or u.op != "call_function" or not u.args:
            return no()
        written = u.args[0]
        others = [u.args[1]] if op_facts.is_view_scatter(u) else list(u.args[1:]) + list(u.kwargs.values())
        for other in mutation.nodes_in(others):
            if other is written:
                return yes(f"{u.name} reads {other.name}, which it writes")
            if self.same_storage(other, written) and self.may_overlap(other, u if op_facts.is_view_scatter(u) else written):
                return yes(f"{other.name} overlaps what {u.name} writes")
        return no()

    def writes_own_view(self, s) -> Verdict:
        """A view scatter whose source is the very view of its base that it writes (same
        storage, same region, no element twice): it leaves its base as it is."""
        if not op_facts.is_view_scatter(s) or len(s.args) < 2 or not isinstance(s.args[1], fx.Node):
            return no()
        src = s.args[1]
        if not self.same_storage(src, s.args[0]):
            return no(f"{src.name} is not in {s.args[0].name}'s storage")
        rs, rd = self.region(src), self.region(s)
        if rs is None or rd is None:
            return no("no layout metadata")
        same = _same_region(rs, rd, fake_value(src)) and not overlap.has_internal_overlap(rd)
        return Verdict(same, f"{src.name} is the region {s.name} writes" if same else f"{src.name} is elsewhere")

    def wrapped_op_name(self, call) -> Optional[str]:
        """``mylib.rotary`` for a functionalized call of ``mylib.rotary.default``; else None."""
        if not functionalized.is_any_functionalized_call(call):
            return None
        return op_display_name(functionalized.wrapped_op(call))

    def _reads_overlap_writes(self, call) -> Verdict:
        """A functionalized call: some argument the op only reads may share memory with one it
        writes (run in place, it would read what it has already written), or (v1) two written
        arguments may share memory.  Of a higher-order op's v2 call, only an operand that is
        one of its bases."""
        written = functionalized.written_memory(call)
        # A higher-order op's functions were traced from the program, which read and wrote shared
        # memory in its own order (a `cond` branch reading one aliased input after writing the
        # other: stock Inductor's in-place run is right, a copy would not be).  Only an operand
        # that is a base itself is a copy the program made and noop removal merged (fuzz p1704).
        exact = functionalized.is_functionalized_hop_v2(call)
        for _, value in functionalized.read_only_arguments(call):
            for other in mutation.nodes_in(value):
                for w in written:
                    if other is w or (not exact and self.may_overlap(other, w)):
                        return yes(f"{other.name}, which {call.name} reads, overlaps {w.name}, which it writes")
        if functionalized.is_functionalized_call(call):
            for i, a in enumerate(written):
                for b in written[i + 1:]:
                    if a is b or self.may_overlap(a, b):
                        return yes(f"{call.name} writes {a.name} and {b.name}, which share memory")
        return no()

    def undoes_view(self, w, v) -> Verdict:
        """Applying view ``v`` to its source and then view ``w`` to the result gives back the
        source's exact layout (sizes, strides and offset): ``w`` is the inverse of ``v``.
        Decided by replaying both view ops on the source's fake tensor."""
        if not (isinstance(w, fx.Node) and isinstance(v, fx.Node)) or not v.args:
            return no()
        if mutation.view_source(w) is None or mutation.view_source(v) is None:
            return no(f"{w.name} or {v.name} is not a view")
        source = fake_value(v.args[0])
        if fake_mode_of(source) is None:
            return no("no fake values")
        got = layout_maps.replay([v, w], source)
        want = layout_maps.map_of_tensor(source)
        if got is None:
            return no(f"{w.name} does not apply to the result of {v.name}")
        return Verdict(got == want, "" if got == want else f"{w.name} after {v.name} gives {got}, not {want}")

    def internal_overlap(self, x) -> Verdict:
        r = self.region(x)
        return Verdict(True, "no layout metadata") if r is None else Verdict(overlap.has_internal_overlap(r))

    def numel(self, x):
        v = fake_value(x)
        return layout_maps.dim_key(v.numel()) if v is not None else 0

    def nbytes(self, x):
        """Bytes of x's elements; a sympy expression on symbolic shapes (never specialized)."""
        v = fake_value(x)
        if v is None:
            return 0
        return layout_maps.dim_key(v.numel()) * v.element_size()

    # ------------------------------------------------------------------ node attributes

    @staticmethod
    def operands(v) -> dict:
        if not isinstance(v, fx.Node) or v.op != "call_function":
            return {}
        bound = mutation.bound_arguments(v)
        if bound is None:
            return {str(i): a for i, a in enumerate(v.args)}
        return {name: (None if value is mutation.MISSING else value) for name, value in bound}

    @staticmethod
    def update_source(u):
        """``src`` of a view scatter, ``values`` of an indexed update; None otherwise."""
        if not isinstance(u, fx.Node) or u.op != "call_function":
            return None
        if op_facts.is_view_scatter(u):
            return u.args[1]
        names = dict(GraphFacts.operands(u))
        return names.get("values")

    @staticmethod
    def interleaved_source(v, dim) -> Optional[fx.Node]:
        return repeats.interleaved_source(v, dim)

    @staticmethod
    def mutated_operand(v) -> Optional[fx.Node]:
        written = mutation.written_operands(v)
        return written[0] if written else None

    @staticmethod
    def op_name(v) -> str:
        return op_display_name(v.target) if isinstance(v, fx.Node) else str(v)

    @staticmethod
    def dtype(v):
        val = fake_value(v)
        return val.dtype if val is not None else None

    @staticmethod
    def shape(v):
        val = fake_value(v)
        return tuple(layout_maps.shape_key(val.shape)) if val is not None else None

    @staticmethod
    def stride(v):
        val = fake_value(v)
        return tuple(layout_maps.shape_key(val.stride())) if val is not None else None

    # ------------------------------------------------------------------ kinds

    @staticmethod
    def is_input(x) -> Verdict:
        return Verdict(isinstance(x, fx.Node) and x.op == "placeholder")

    @staticmethod
    def is_const(x) -> Verdict:
        if isinstance(x, (list, tuple)):
            return Verdict(all(GraphFacts.is_const(v) for v in x))
        return Verdict(not isinstance(x, fx.Node))

    # ------------------------------------------------------------------ autograd

    def saved_for_backward(self, x, table: Dict[str, frozenset]) -> Verdict:
        if self.graph_kind not in ("forward", "joint") or not isinstance(x, fx.Node):
            return no(f"not a training graph ({self.graph_kind})" if isinstance(x, fx.Node) else "")
        keeps_output = table.get("output", frozenset()) | table.get("both", frozenset())
        keeps_input = table.get("input", frozenset()) | table.get("both", frozenset())
        if x.op == "call_function" and targets_match(x.target, keeps_output):
            return yes(f"{x.name} ({_op_name(x)}) keeps its output for backward")
        for u in x.users:
            if u.op == "call_function" and targets_match(u.target, keeps_input):
                return yes(f"{u.name} ({_op_name(u)}) keeps its input {x.name} for backward")
        return no()

    # ------------------------------------------------------------------ subgraphs

    def subgraph_mutates(self, root: fx.GraphModule, subgraph_node, operand) -> Verdict:
        """Does the subgraph passed to a higher-order op through ``subgraph_node`` write into the
        placeholder that receives ``operand``?"""
        if not isinstance(subgraph_node, fx.Node) or subgraph_node.op != "get_attr":
            return no(f"{subgraph_node!r} is not a subgraph")
        sub = getattr(root, subgraph_node.target, None)
        hops = [u for u in subgraph_node.users if u.op == "call_function"]
        if not isinstance(sub, fx.GraphModule) or not hops:
            return no()
        positions = [i for i, v in enumerate(hop_operands(hops[0])) if v is operand]
        placeholders = [n for n in sub.graph.nodes if n.op == "placeholder"]
        written = subgraph_written_placeholders(sub)
        hit = [placeholders[p].name for p in positions if p < len(placeholders) and placeholders[p] in written]
        return Verdict(bool(hit), f"{subgraph_node.target} writes {hit[0]}" if hit else "")


def hop_operands(hop: fx.Node) -> List:
    """The flattened tensor operands a higher-order op passes to its subgraphs' placeholders:
    every list/tuple argument, in order (``while_loop``: carried + captured; ``cond``: operands)."""
    out = []
    for a in hop.args:
        if isinstance(a, (list, tuple)):
            out.extend(a)
    return out


def hop_subgraphs(root: fx.GraphModule, node: fx.Node) -> List[Tuple[str, fx.GraphModule]]:
    """``(attribute, subgraph)`` of each subgraph a higher-order op node calls (none for others)."""
    if node.op != "call_function" or not isinstance(node.target, torch._ops.HigherOrderOperator):
        return []
    out = []
    for attr in node.args:
        if isinstance(attr, fx.Node) and attr.op == "get_attr":
            sub = getattr(root, attr.target, None)
            if isinstance(sub, fx.GraphModule):
                out.append((attr.target, sub))
    return out


def subgraph_written_placeholders(sub: fx.GraphModule) -> set:
    """Placeholders of ``sub`` written by it, directly, through a view, or inside a nested
    higher-order op's subgraph."""
    facts = GraphFacts(sub.graph)
    placeholders = [n for n in sub.graph.nodes if n.op == "placeholder"]
    written_nodes = set()
    for n in sub.graph.nodes:
        written_nodes.update(mutation.written_operands(n))
        for _, inner in hop_subgraphs(sub, n):
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



def _same_region(a: regions.Region, b: regions.Region, like) -> bool:
    """The same addresses: equal, or (symbolic shapes) each offset, size and stride provably
    equal under what the shape environment knows (``Min(6, s77)`` is 6 once ``s77 >= 6``)."""
    if a == b:
        return True
    if (a.storage, a.itemsize, len(a.sizes), len(a.strides)) != (b.storage, b.itemsize, len(b.sizes), len(b.strides)):
        return False
    mode = fake_mode_of(like)
    env = getattr(mode, "shape_env", None) if mode is not None else None
    if env is None:
        return False
    import sympy

    for x, y in zip((a.offset, *a.sizes, *a.strides), (b.offset, *b.sizes, *b.strides)):
        if x == y:
            continue
        try:
            if env._maybe_evaluate_static(sympy.Eq(sympy.sympify(x), sympy.sympify(y))) != sympy.true:
                return False
        except Exception:  # noqa: BLE001 - not decidable: not the same
            return False
    return True
