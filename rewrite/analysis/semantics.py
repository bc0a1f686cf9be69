"""What an ATen graph computes, as value terms: the reference of the legality check.

The graph runs its nodes in order (FX semantics).  Every node's value and every read of memory is
described by a *term*; in-place writes replace the term of the memory they write.  Terms are
interned (hash-consed), so two are equal exactly when their integer ids are.  Reads and writes go
through *maps* (``layout_maps``): a read of a view is ``strided(content of its root, map)``, a
write through a view is ``scatter(content, value, map)``, and a functional scatter op
(``slice_scatter(x, src, ...)``) is the same ``scatter`` term, so a rewrite that turns one into
the other leaves every observed term unchanged.  A few normalizations (read-over-write, nested
scatters, views undone by their inverse, no-op copies) make the terms of equivalent programs
coincide; anything they do not cover stays a distinct term, so the comparison can refuse a
correct rewrite but never accept a wrong one.

``Comparison`` compares the graph before a transaction with the graph after it, event-driven:
only nodes that read changed values or changed memory are evaluated, so checking a local
rewrite costs time proportional to what it touches, not to the graph.
"""
from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

import torch
import torch.fx as fx

from rewrite.analysis import layout_maps as lm
from rewrite.analysis import op_families, regions, repeats
from rewrite.analysis.fake import fake_value
from rewrite.analysis.op_names import op_display_name

# --------------------------------------------------------------------------- terms


class Terms:
    """Interned terms.  A term is an int; ``defs[t]`` is its key tuple, ``shapes[t]`` the shape
    of the tensor it denotes (None when unknown or not a tensor)."""

    def __init__(self):
        self._ids: Dict[tuple, int] = {}
        self.defs: List[tuple] = []
        self.shapes: List[Optional[tuple]] = []
        self.likes: List[Optional[torch.Tensor]] = []   # a fake tensor of the term's shape/dtype
        self.inner_maps: Dict[int, lm.Map] = {}          # scatter term -> its map composed into the
        #                                                  coordinates of the tensor its base views

    def make(self, key: tuple, like: Optional[torch.Tensor] = None) -> int:
        t = self._ids.get(key)
        if t is None:
            t = len(self.defs)
            self._ids[key] = t
            self.defs.append(key)
            self.likes.append(like)
            self.shapes.append(lm.shape_key(like.shape) if isinstance(like, torch.Tensor) else None)
        elif self.likes[t] is None and isinstance(like, torch.Tensor):
            self.likes[t] = like
            self.shapes[t] = lm.shape_key(like.shape)
        return t

    def kind(self, t: int) -> str:
        return self.defs[t][0]


def _const_key(value):
    """A hashable stand-in for a non-tensor argument."""
    if isinstance(value, (list, tuple)):
        return ("list", tuple(_const_key(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((k, _const_key(v)) for k, v in value.items())))
    if isinstance(value, float) and value != value:
        return ("nan",)
    if isinstance(value, (torch.SymInt, torch.SymFloat, torch.SymBool)):
        return ("sym", str(value.node.expr))
    try:
        hash(value)
        return value
    except TypeError:
        return ("repr", repr(value))


# --------------------------------------------------------------------------- normalization


class Algebra:
    """Term constructors that normalize as they build."""

    def __init__(self, terms: Terms):
        self.terms = terms

    def strided(self, base: int, m: Optional[lm.Map], steps: Sequence[fx.Node] = (),
                like: Optional[torch.Tensor] = None, fallback: object = None) -> int:
        """The view ``m`` of the value ``base``; ``steps`` (the view ops that produced ``m`` from
        ``base``'s coordinates) let a view be recognized as undoing an earlier one."""
        T = self.terms
        if m is None:
            return T.make(("view?", base, fallback), like)
        shape = T.shapes[base]
        if shape is not None and lm.is_identity(m, shape):
            return base
        d = T.defs[base]
        if d[0] == "scatter":
            _, inner_base, src, m1 = d
            if m == m1 and not _self_overlapping(m1):
                return src
            if not _may_overlap(m, m1):
                return self.strided(inner_base, m, steps, like, fallback)
            # a bijective view of a patched view, undone by this view: patch the original
            undone = self._undo(inner_base, m, steps)
            if undone is not None and base in T.inner_maps:
                return self.scatter(undone, src, T.inner_maps[base])
        return T.make(("strided", base, m), like)

    def _undo(self, inner_base: int, m: lm.Map, steps: Sequence[fx.Node]) -> Optional[int]:
        """If ``inner_base`` is ``strided(V, ma)`` and applying ``steps`` after ``ma`` gives back
        all of ``V`` in order, return ``V``."""
        T = self.terms
        d = T.defs[inner_base]
        if d[0] != "strided" or not steps:
            return None
        _, v, ma = d
        like = T.likes[v]
        if like is None:
            return None
        composed = lm.compose_steps(like, ma, steps)
        return v if composed is not None and lm.is_identity(composed, like.shape) else None

    def scatter(self, base: int, src: int, m: Optional[lm.Map], like: Optional[torch.Tensor] = None,
                fallback: object = None) -> int:
        """``base`` with the elements at ``m`` replaced by ``src``."""
        T = self.terms
        if m is None:
            return T.make(("scatter?", base, src, fallback), like)
        shape = T.shapes[base]
        if shape is not None and lm.is_identity(m, shape) and T.shapes[src] == shape:
            return src                                    # whole overwrite
        sd = T.defs[src]
        if sd[0] == "strided" and sd[1] == base and sd[2] == m and not _self_overlapping(m):
            return base                                   # writes what is already there
        if sd[0] == "scatter":
            inner = T.defs[sd[1]]
            # scatter(V, scatter(strided(V, m), t, m2), m) = scatter(V, t, m . m2)
            if inner[0] == "strided" and inner[1] == base and inner[2] == m and sd[1] != src \
                    and src in T.inner_maps:
                return self.scatter(base, sd[2], T.inner_maps[src], like)
        bd = T.defs[base]
        if bd[0] == "scatter" and bd[3] == m:
            base = bd[1]                                   # overwrites the same elements
        return T.make(("scatter", base, src, m), like if like is not None else T.likes[base])

    def scatter_with_inner(self, base: int, src: int, m: Optional[lm.Map], inner: Optional[lm.Map],
                           like: Optional[torch.Tensor]) -> int:
        """A functional scatter whose base is a view: remember its map in the viewed tensor's
        coordinates, for the nested-scatter normalization."""
        t = self.scatter(base, src, m, like)
        if inner is not None and self.terms.defs[t][0] == "scatter":
            self.terms.inner_maps.setdefault(t, inner)
        return t


def _region(m: lm.Map) -> regions.Region:
    return regions.Region("logical", m[2], tuple(m[0]), tuple(m[1]), 1)


def _may_overlap(a: lm.Map, b: lm.Map) -> bool:
    try:
        return regions.may_overlap(_region(a), _region(b))
    except Exception:  # noqa: BLE001 - unknown: assume they overlap
        return True


def _self_overlapping(m: lm.Map) -> bool:
    try:
        return regions.has_internal_overlap(_region(m))
    except Exception:  # noqa: BLE001
        return True


# --------------------------------------------------------------------------- roots and aliases


class AliasIndex:
    """For every node: the node owning its memory (its root) and its view steps from it; for
    every root: its aliases and the nodes that write them, in graph order.  Built on first use
    and kept current through :meth:`add` (new nodes) and :meth:`changed` (rewired nodes)."""

    def __init__(self, graph: fx.Graph):
        self.graph = graph
        self._chain: Dict[fx.Node, Tuple[fx.Node, Tuple[fx.Node, ...]]] = {}
        self._aliases: Dict[fx.Node, List[fx.Node]] = {}
        self._writers: Dict[fx.Node, List[fx.Node]] = {}
        self._maps: Dict[Tuple[fx.Node, Tuple[fx.Node, ...]], Optional[lm.Map]] = {}
        self._member: Dict[fx.Node, Set[fx.Node]] = {}    # node -> the roots whose alias lists hold it
        self._writer_of: Dict[fx.Node, Set[fx.Node]] = {}  # writer -> the roots whose writer lists hold it
        self._built = False

    def _build(self) -> None:
        if self._built:
            return
        self._built = True
        for node in self.graph.nodes:
            self.add(node)

    def add(self, node: fx.Node) -> None:
        if not self._built:
            return
        root, _ = self.chain(node)
        self._join(node, root)
        self._writers.pop(root, None)
        for dst in op_families.written_nodes(node):
            self._writers.pop(self.root(dst), None)

    def _join(self, node: fx.Node, root: fx.Node) -> None:
        roots = self._member.setdefault(node, set())
        if root not in roots:
            roots.add(root)
            self._aliases.setdefault(root, []).append(node)

    @staticmethod
    def _with_views(nodes: Iterable[fx.Node]) -> Set[fx.Node]:
        """``nodes`` and every node that is a view of one of them, transitively."""
        out: Set[fx.Node] = set()
        stack = list(nodes)
        while stack:
            n = stack.pop()
            if n in out:
                continue
            out.add(n)
            stack.extend(u for u in n.users if op_families.alias_source(u) is n)
        return out

    def changed(self, nodes: Iterable[fx.Node]) -> None:
        """``nodes`` were rewired (a transaction committed or rolled back): forget what was
        derived from their old arguments."""
        stale = self._with_views(nodes)
        for n in stale:
            self._chain.pop(n, None)
        if self._built:                       # updated in place: a rebuild per rewrite is quadratic
            for n in stale:
                for root in self._member.pop(n, ()):
                    self._writers.pop(root, None)
                    members = self._aliases.get(root)
                    if members is not None and n in members:
                        members.remove(n)
                if not n._erased:
                    self._join(n, self.chain(n)[0])
            self._forget_writers(stale)

    def pending(self, rewired: Iterable[fx.Node]) -> None:
        """A transaction rewired ``rewired`` and is being checked: chains are recomputed for the
        graph as it is now (the after view), and each rewired view also counts as an alias of
        its new root, beside its old one (so readers of both are looked at).  The engine calls
        :meth:`changed` when the transaction commits or rolls back."""
        stale = self._with_views(rewired)
        for n in stale:
            self._chain.pop(n, None)
        if self._built:
            for n in stale:
                self._join(n, self.root(n))
            self._forget_writers(stale)

    def _forget_writers(self, nodes: Iterable[fx.Node]) -> None:
        """Drop the writer lists that ``nodes`` are in, or would be in now, or whose alias
        lists they joined or left."""
        for n in nodes:
            for root in self._writer_of.pop(n, ()):
                self._writers.pop(root, None)
            for root in self._member.get(n, ()):
                self._writers.pop(root, None)
            if not n._erased:
                for dst in op_families.written_nodes(n):
                    self._writers.pop(self.root(dst), None)

    def chain(self, node: fx.Node, view: Optional["GraphView"] = None) -> Tuple[fx.Node, Tuple[fx.Node, ...]]:
        """``(root, steps)`` of ``node``, as it is in ``view`` (default: the graph as it is)."""
        if view is None or not view.old_args:
            got = self._chain.get(node)
            if got is None:
                got = lm.chain_to(node)
                self._chain[node] = got
            return got
        steps = []
        n = node
        while True:
            source = op_families.alias_source(n, view.args(n)[0])
            if source is None:
                return n, tuple(reversed(steps))
            steps.append(n)
            n = source

    def root(self, node: fx.Node, view: Optional["GraphView"] = None) -> fx.Node:
        return self.chain(node, view)[0]

    def map(self, node: fx.Node, view: Optional["GraphView"] = None) -> Optional[lm.Map]:
        key = self.chain(node, view)
        if key not in self._maps:
            self._maps[key] = lm.map_from_root(*key)
        return self._maps[key]

    def aliases(self, root: fx.Node) -> List[fx.Node]:
        self._build()
        return [n for n in self._aliases.get(root, [root]) if not n._erased]

    def writers(self, root: fx.Node) -> List[fx.Node]:
        """Nodes writing memory of ``root``, in graph order (to-be-erased ones included: a
        transaction erases only at commit)."""
        self._build()
        got = self._writers.get(root)
        if got is None:
            found = set()
            for alias in self._aliases.get(root, [root]):
                for user in alias.users:
                    if alias in op_families.written_nodes(user):
                        found.add(user)
            got = sorted(found)
            self._writers[root] = got
            for w in got:
                self._writer_of.setdefault(w, set()).add(root)
        return got


# --------------------------------------------------------------------------- one view of a graph


@dataclass
class GraphView:
    """The graph before or after a transaction, over the same node list: which nodes exist and
    which arguments they have."""

    name: str
    absent: Set[fx.Node] = field(default_factory=set)           # nodes this view does not have
    old_args: Dict[fx.Node, Tuple[tuple, dict]] = field(default_factory=dict)
    deferred: Set[fx.Node] = field(default_factory=set)          # writes that take effect only
    #                                                              at the end (functional reading)

    def has(self, node: fx.Node) -> bool:
        return node not in self.absent

    def args(self, node: fx.Node) -> Tuple[tuple, dict]:
        got = self.old_args.get(node)
        return got if got is not None else (node.args, node.kwargs)


class _State:
    """Evaluation state of one view: node values and memory contents of tracked roots."""

    def __init__(self, view: GraphView):
        self.view = view
        self.values: Dict[fx.Node, int] = {}
        self.content: Dict[fx.Node, int] = {}
        self.pending: Dict[fx.Node, List[Tuple[fx.Node, Optional[lm.Map], int]]] = {}   # deferred writes
        self.writes: Dict[fx.Node, List[fx.Node]] = {}   # root -> processed writers, in order


@dataclass
class Divergence:
    """Why the graphs differ: the first observable difference, explained."""

    message: str
    node: Optional[fx.Node] = None


class Evaluator:
    """Term evaluation of the two views of one comparison.  A root is *tracked* once a
    processed node writes its memory or it is processed itself; from then on both views keep a
    content term for it and every later reader of it is evaluated."""

    def __init__(self, terms: Terms, index: AliasIndex, states: Sequence[_State], on_track=None):
        self.terms = terms
        self.alg = Algebra(terms)
        self.index = index
        self.states = list(states)
        self.tracked: Set[fx.Node] = set()
        self._on_track = on_track

    # ---------------------------------------------------------------- reads

    def leaf(self, node: fx.Node, at: fx.Node, state: Optional[_State] = None) -> int:
        """The value of an unaffected node as ``at`` reads it: which writes it has seen is all
        that can differ (a deferred write is seen only through its own result)."""
        like = fake_value(node)
        if like is None:
            return self.terms.make(("leaf", node, None), like)
        root, steps = self.index.chain(node, state.view if state is not None else None)
        writers = self.index.writers(root)
        if state is not None:
            through = set(steps)
            writers = [w for w in writers if state.view.has(w)
                       and (w not in state.view.deferred or w in through)]
        return self.terms.make(("leaf", node, _last_before(writers, at)), like)

    def read(self, state: _State, node: fx.Node, at: fx.Node) -> int:
        """The term of the value ``at`` reads through its operand ``node``."""
        like = fake_value(node)
        if like is None:
            return state.values[node] if node in state.values else self.leaf(node, at, state)
        root, steps = self.index.chain(node, state.view)
        if root in self.tracked:
            content = self._content_for(state, root, steps)
        elif root in state.values:
            content = state.values[root]
        else:
            content = self.leaf(root, at, state)
        return self.alg.strided(content, self.index.map(node, state.view), steps, like, fallback=node)

    def _content_for(self, state: _State, root: fx.Node, steps: Sequence[fx.Node]) -> int:
        """Current content of ``root``'s memory as seen through ``steps``: a read through the
        result of a deferred write sees that write (and the deferred ones before it)."""
        content = state.content[root]
        pending = state.pending.get(root)
        if pending:
            through = set(steps)
            last = max((i for i, (w, _, _) in enumerate(pending) if w in through), default=-1)
            for writer, m, value in pending[: last + 1]:
                content = self.alg.scatter(content, value, m, fallback=writer)
        return content

    def start_tracking(self, root: fx.Node, at: fx.Node) -> None:
        if root in self.tracked:
            return
        self.tracked.add(root)
        for state in self.states:
            state.content[root] = state.values[root] if root in state.values else self.leaf(root, at, state)
        if self._on_track is not None:
            self._on_track(root, at)

    def final_content(self, state: _State, root: fx.Node) -> Optional[int]:
        if root not in state.content:
            return None
        content = state.content[root]
        for writer, m, value in state.pending.get(root, []):
            content = self.alg.scatter(content, value, m, fallback=writer)
        return content

    # ---------------------------------------------------------------- node values

    def evaluate(self, state: _State, node: fx.Node) -> Tuple[Optional[tuple], Optional[int]]:
        """``(operand terms, value term)`` of ``node`` in ``state``'s view (operand terms None
        for nodes that read nothing: placeholders, views); in-place writes update the state's
        memory contents."""
        args, kwargs = state.view.args(node)
        if node.op == "placeholder":
            return None, self.terms.make(("input", node.target), fake_value(node))
        if node.op == "get_attr":
            return None, self.terms.make(("attr", node.target), fake_value(node))
        if node.op == "call_function" and op_families.alias_source(node, args) is not None \
                and not op_families.returns_written(node.target):
            return None, None                            # a view: values are read through it
        operands = self._operands(state, node, args, kwargs)
        if node.op == "output":
            return operands, None
        if node.op != "call_function":
            return operands, self.terms.make(("call", node.op, str(node.target), operands), fake_value(node))
        target = op_families.resolved(node.target)
        written = _written_in(target, args, kwargs)
        if written:
            self._apply_writes(state, node, target, args, kwargs, written, operands)
            return operands, None
        if op_families.is_getitem(node):
            producer = args[0]
            if isinstance(producer, fx.Node) and producer in state.values:
                return operands, self.terms.make(("proj", state.values[producer], _const_key(args[1])), fake_value(node))
            written = self._written_item(state, producer, args[1])
            if written is not None:
                return operands, self.read(state, written, node)
            return operands, self.leaf(node, node, state)
        return operands, self._fresh_value(state, node, target, args, kwargs, operands)

    def _written_item(self, state, producer, index) -> Optional[fx.Node]:
        """Item ``index`` of an in-place foreach op is the tensor it wrote (Inductor's
        reinplacing turns ``_foreach_mul`` into ``_foreach_mul_`` and keeps the ``getitem`` users,
        which its lowering of the in-place op answers with the written tensors)."""
        if not isinstance(producer, fx.Node) or producer.op != "call_function" or not isinstance(index, int) \
                or not op_families.is_inplace_foreach(producer.target):
            return None
        p_args, p_kwargs = state.view.args(producer)
        written = _written_in(producer.target, p_args, p_kwargs)
        return written[index] if 0 <= index < len(written) else None

    def _operands(self, state, node, args, kwargs) -> tuple:
        def conv(a):
            if isinstance(a, fx.Node):
                return ("t", self.read(state, a, node))
            if isinstance(a, (list, tuple)):
                return ("list", tuple(conv(x) for x in a))
            return _const_key(a)

        target = op_families.resolved(node.target) if node.op == "call_function" else None
        bound = _bind(target, args, kwargs) if target is not None else None
        if bound is not None:
            grouped = _GROUPED_HEADS.get(target, ())
            return tuple(self._ungrouped(state, v, node, conv) if i in grouped else conv(v)
                         for i, v in enumerate(bound))
        return (conv(tuple(args)), tuple(sorted((k, conv(v)) for k, v in kwargs.items())))

    def _ungrouped(self, state, k, at: fx.Node, conv) -> tuple:
        """The operand term of a key/value operand ``k`` of an op that reads grouped heads
        (``_GROUPED_HEADS``): where ``k`` is a fresh copy of ``x.repeat_interleave(n, 1)`` that
        nothing writes, the term of ``x`` as the copy read it (the op computes the same from
        ``x`` itself), else ``k``'s own term.  A rewrite that passes ``x`` instead of ``k`` is
        then the same value exactly when ``x`` was not written in between."""
        chain = repeats.interleaved_chain(k, 1) if isinstance(k, fx.Node) else None
        if chain is None:
            return conv(k)
        x, nodes = chain
        if any(n in state.view.old_args or not state.view.has(n) for n in nodes):
            return conv(k)
        fresh = self.index.root(k, state.view)       # the copy k views (k itself if it is one)
        if fresh not in nodes or self.index.writers(fresh):
            return conv(k)
        return ("t", self.read(state, x, fresh))

    def _fresh_value(self, state, node, target, args, kwargs, operands) -> int:
        T, like = self.terms, fake_value(node)
        first = args[0] if args and isinstance(args[0], fx.Node) else None
        if target is torch.ops.aten.clone.default and first is not None:
            return self.read(state, first, node)
        if target is torch.ops.aten._to_copy.default and first is not None:
            src = fake_value(first)
            if src is not None and like is not None and src.dtype == like.dtype and src.device == like.device:
                return self.read(state, first, node)
        if target is torch.ops.aten.copy.default and len(args) >= 2 and isinstance(args[1], fx.Node):
            return self.convert(self.read(state, args[1], node), fake_value(args[0]), fake_value(args[1]))
        if op_families.is_view_scatter_target(target) and first is not None and len(args) >= 2:
            base = self.read(state, first, node)
            src = self.read(state, args[1], node) if isinstance(args[1], fx.Node) else T.make(("const", _const_key(args[1])))
            base_like = fake_value(first)
            m = lm.scatter_map(node, base_like) if base_like is not None else None
            inner = None
            bd = T.defs[base]
            if bd[0] == "strided" and T.likes[bd[1]] is not None:
                inner = lm.scatter_map(node, T.likes[bd[1]], base_map=bd[2])
            return self.alg.scatter_with_inner(base, src, m, inner, like)
        if op_families.view_op_of_view_copy(target) is not None and first is not None and fake_value(first) is not None:
            m = lm.view_copy_map(node, fake_value(first))
            return self.alg.strided(self.read(state, first, node), m, (), like, fallback=node)
        identity = _random_identity(node, target, args, kwargs)
        return T.make(_canonical_op(target, operands, identity), like)

    def convert(self, src: int, dst_like, src_like) -> int:
        """What ``copy_(dst, src)`` / ``aten.copy(dst, src)`` puts into ``dst``: ``src`` itself
        when shape and dtype agree, else ``src`` broadcast and cast."""
        if dst_like is None or src_like is None:
            return self.terms.make(("convert", src, None), dst_like)
        if lm.same_shape(dst_like.shape, src_like.shape) and dst_like.dtype == src_like.dtype:
            return src
        return self.terms.make(("convert", src, lm.shape_key(dst_like.shape), dst_like.dtype), dst_like)

    def _apply_writes(self, state, node, target, args, kwargs, written, operands) -> None:
        if op_families.is_copy_target(target):
            dst, src = args[0], args[1]
            if isinstance(src, fx.Node):
                value = self.convert(self.read(state, src, node), fake_value(dst), fake_value(src))
            else:
                value = self.terms.make(("fill", _const_key(src)), fake_value(dst))
            self._write(state, node, dst, value)
            return
        functional = op_families.functional_variant(target) if op_families.is_op_overload(target) else None
        name = functional if functional is not None else ("inplace", target)
        identity = _random_identity(node, target, args, kwargs)
        if len(written) == 1 and written[0] is args[0]:
            self._write(state, node, written[0], self.terms.make(_canonical_op(name, operands, identity),
                                                                 fake_value(written[0])))
            return
        whole = self.terms.make(("op", name, operands, identity))
        for i, dst in enumerate(written):
            self._write(state, node, dst, self.terms.make(("proj", whole, i), fake_value(dst)))

    def _write(self, state: _State, writer: fx.Node, dst: fx.Node, value: int) -> None:
        root, _ = self.index.chain(dst, state.view)
        self.start_tracking(root, writer)
        m = self.index.map(dst, state.view)
        if writer in state.view.deferred:
            state.pending.setdefault(root, []).append((writer, m, value))
        else:
            state.content[root] = self.alg.scatter(state.content[root], value, m, fallback=writer)
        state.writes.setdefault(root, []).append(writer)


#: Ops whose two tensor operands commute exactly (IEEE addition and multiplication are
#: commutative, and so are type promotion and broadcasting): their operand terms are sorted, so
#: ``add(d, x)`` and ``add(x, d)`` are one term (``add`` only with ``alpha`` 1).
_COMMUTATIVE = frozenset({torch.ops.aten.add.Tensor, torch.ops.aten.mul.Tensor})


#: Attention ops that take key and value (operands 1 and 2) with fewer heads (dimension 1) than
#: the query: query head ``h`` reads key/value head ``h // (query heads / key heads)``, so they
#: compute the same from ``x`` as from ``x.repeat_interleave(n, 1)`` (tests/engine/
#: test_grouped_heads.py runs each against the repeated form).
_GROUPED_HEADS = {torch.ops.aten._scaled_dot_product_flash_attention_for_cpu.default: (1, 2)}


def _random_identity(node: fx.Node, target, args, kwargs) -> Optional[str]:
    """A seeded random op draws new numbers at every call: its term is its own (the node's
    name), never equal to another call's.  Attention ops are seeded only for dropout, and with
    ``dropout_p`` the constant 0 draw nothing."""
    if not op_families.is_nondeterministic(target):
        return None
    names = [a.name for a in target._schema.arguments]
    if "dropout_p" in names:
        bound = _bind(target, args, kwargs)
        p = bound[names.index("dropout_p")] if bound is not None else None
        if isinstance(p, (int, float)) and not isinstance(p, bool) and p == 0:
            return None
    return node.name


def _canonical_op(target, operands: tuple, identity) -> tuple:
    if target in _COMMUTATIVE and len(operands) >= 2 and all(o == 1 for o in operands[2:]):
        a, b = operands[0], operands[1]
        if isinstance(a, tuple) and isinstance(b, tuple) and a[0] == b[0] == "t" and b[1] < a[1]:
            operands = (b, a) + tuple(operands[2:])
    return ("op", target, operands, identity)


def _bind(target, args, kwargs) -> Optional[list]:
    """Arguments in schema order with defaults filled in (so that ``f(x)`` and ``f(x, False)``
    compare equal); None without a schema."""
    if not op_families.is_op_overload(target):
        return None
    out = []
    for i, a in enumerate(target._schema.arguments):
        if i < len(args):
            out.append(args[i])
        elif a.name in kwargs:
            out.append(kwargs[a.name])
        elif a.has_default_value():
            out.append(a.default_value)
        else:
            out.append(None)
    return out


def _written_in(target, args, kwargs) -> List[fx.Node]:
    if not op_families.is_op_overload(target):
        return []
    schema_args = target._schema.arguments
    out = []
    for i in op_families.written_argument_positions(target):
        value = args[i] if i < len(args) else kwargs.get(schema_args[i].name)
        out.extend(op_families._nodes_in(value))
    return out


def _last_before(nodes: Sequence[fx.Node], at: fx.Node) -> Optional[fx.Node]:
    last = None
    for n in nodes:
        if n < at:
            last = n
        else:
            break
    return last


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
    if val is None or op_families.alias_source(node) is None:
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

