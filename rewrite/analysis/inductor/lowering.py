"""Where a graph that is right node by node goes wrong once Inductor lowers it.

Inductor computes most values lazily: a pointwise op, a view, a gather, even ``clone`` becomes a
loop body that is inlined into whatever consumes it, and it is only materialized when something
forces it (an extern kernel such as a matmul, a graph output, a write).  So a read does not happen
where the node that reads sits in the graph, but where its value is finally consumed, possibly
inside the loop of an in-place write.  Two hazards follow (both seen in stock Inductor's own
output: pytorch issues 197829, 198270):

* **inside**: a write's lazily computed source reads memory the write changes, at other
  positions than the one being written (``x[1:].copy_(x[:-1])``, ``x.copy_(x.flip(0) + x)``);
* **deferred**: a lazy read sits before a write to the memory it reads, and its value is consumed
  after that write (``y = x.flip(0); x.copy_(z); use(y)``).

A read is safe inside a write's loop only when it reads exactly the element being written and
every op between the read and the write is pointwise over the same shape.  This model is
deliberately conservative: it does not rely on when Inductor happens to realize a value, so a
repair (copying the read value first) may cost a copy Inductor would have made anyway, never a
wrong result.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, FrozenSet, Iterable, List, Optional, Set, Tuple

import torch
import torch.fx as fx
from torch.fx.experimental.symbolic_shapes import statically_known_true

from rewrite.analysis.semantics import layout_maps
from rewrite.analysis.facts import op_facts
from rewrite.analysis.semantics import overlap
from rewrite.analysis.semantics import regions
from rewrite.analysis.facts.op_facts import is_materialized_copy
from rewrite.analysis.facts.fake import fake_value
from rewrite.analysis.facts.op_facts import op_display_name, targets_match

#: Nodes a cone walk may visit before it gives up (and reports a hazard, to be safe).
CONE_BUDGET = 2000


@dataclass(frozen=True)
class Hazard:
    kind: str               # "inside", "deferred", "dtype_view", "reordered" or "concat_input"
    write: fx.Node          # the write the read conflicts with
    reader: fx.Node         # the lazy node (or the write itself) that reads
    operand: fx.Node        # the alias it reads through
    consumer: Optional[fx.Node] = None   # deferred: where the read's value is consumed

    def describe(self) -> str:
        w, r, a = self.write, self.reader, self.operand
        if self.kind == "dtype_view":
            return (f"`{w.name}` ({_op(w)}) writes through `{a.name}`, a view of another dtype, and Inductor "
                    f"stores converted values there instead of their bits")
        if self.kind == "reordered":
            return (f"`{w.name}` ({_op(w)}) writes all of a buffer after `{r.name}` ({_op(r)}) wrote part of "
                    f"it through `{a.name}`{_elements(a)}, and Inductor orders the whole write first")
        if self.kind == "concat_input":
            return (f"`{w.name}` ({_op(w)}) writes the result of a `cat` into which Inductor may compute its input "
                    f"`{a.name}` directly, and `{r.name}` ({_op(r)}) reads `{a.name}` after the write")
        if self.kind == "inside":
            where = "its own" if r is w else f"`{r.name}` ({_op(r)}), inlined into its"
            return (f"`{w.name}` ({_op(w)}) writes memory that {where} loop reads at other positions "
                    f"through `{a.name}`{_elements(a)}")
        return (f"`{r.name}` ({_op(r)}) reads `{a.name}`{_elements(a)} before `{w.name}` ({_op(w)}) "
                f"overwrites it, but Inductor computes it only where `{self.consumer.name}` uses it, after the write")


def _op(node: fx.Node) -> str:
    return op_display_name(node.target) if node.op == "call_function" else node.op


def _elements(node: fx.Node) -> str:
    val = fake_value(node)
    if val is None:
        return ""
    return f" ({'x'.join(str(s) for s in val.shape) or 'scalar'} elements at offset {val.storage_offset()})"


class LoweringModel:
    """Which nodes Inductor may compute lazily, and the hazards of one graph's writes."""

    def __init__(self, graph: fx.Graph, materialized: Optional[Dict[str, FrozenSet]] = None,
                 buffered_are_lazy: bool = True, lowered: bool = True):
        """``buffered_are_lazy=False``: the ops the ``materialized`` table lists as ``buffered``
        (reductions, scatters...) are computed into buffers, as Inductor lowers them; a model
        of what stock Inductor does, for repair rules.  The legality check keeps the default,
        which takes them as possibly lazy (conservative).  ``lowered=False``: the graph runs op
        by op after the pass (the eager base): every value is computed into a tensor of its own
        before anything reads it, and ops run in graph order.  Nothing is lazy, and the only
        hazard left is an op whose own operand overlaps what it writes at other positions (an
        eager kernel raises or reads what it already wrote, as Inductor's loop would)."""
        self.graph = graph
        self.lowered = lowered
        self.extern = (materialized or {}).get("extern", frozenset())
        self.buffered = (materialized or {}).get("buffered", frozenset()) if not buffered_are_lazy else frozenset()
        self._storage: Dict[fx.Node, object] = {}
        self._by_storage: Optional[Dict[object, List[fx.Node]]] = None
        self._absent: Set[fx.Node] = set()

    # ---------------------------------------------------------------- facts

    def storage(self, node) -> Optional[object]:
        """The storage ``node``'s value lives in: that of the node owning the memory (found
        through views and in-place results, whose fake values a pass may have left stale)."""
        if not isinstance(node, fx.Node):
            return None
        if node not in self._storage:
            self._storage[node] = layout_maps.owner_storage(node)
        return self._storage[node]

    def region(self, node: fx.Node) -> Optional[regions.Region]:
        key = self.storage(node)
        if key is None:
            return None
        if op_facts.returns_written(getattr(node, "target", None)):
            written = op_facts.written_nodes(node)
            return self.region(written[0]) if written else None
        return regions.region_of_node(node, lambda n: key)

    def is_lazy(self, node: fx.Node) -> bool:
        """Inductor may inline this node's computation into its consumers: it is not a view,
        not a write, not an extern kernel, and nothing writes into it (a written value lives
        in a buffer).  Nothing is, where the graph is not lowered."""
        if not self.lowered or node.op != "call_function" or fake_value(node) is None:
            return False
        if any(node in op_facts.written_nodes(u) for u in node.users if u not in self._absent):
            return False
        if op_facts.alias_source(node) is not None or op_facts.written_nodes(node):
            return False                         # a view or a write: reads memory, is not a value
        if self.extern and targets_match(node.target, self.extern) or is_materialized_copy(node):
            return False                         # an extern kernel: its result is a buffer
        if self.buffered and targets_match(node.target, self.buffered) and not _unrolled_reduction(node):
            return False
        return not isinstance(node.target, torch._ops.HigherOrderOperator)

    def _index(self) -> Dict[object, List[fx.Node]]:
        if self._by_storage is None:
            self._by_storage = {}
            for n in self.graph.nodes:
                key = self.storage(n)
                if key is not None:
                    self._by_storage.setdefault(key, []).append(n)
        return self._by_storage

    def forget(self, nodes: Iterable[fx.Node]) -> None:
        """``nodes`` were rewired (pass the views of them too): their storage may have changed.
        The index is updated in place (a rebuild per rewrite would make a pass quadratic)."""
        for n in nodes:
            old = self._storage.pop(n, None)
            if self._by_storage is None:
                continue
            if old is not None and n in self._by_storage.get(old, ()):
                self._by_storage[old].remove(n)
            if not n._erased:
                key = self.storage(n)
                if key is not None:
                    self._by_storage.setdefault(key, []).append(n)

    def note_new_node(self, node: fx.Node) -> None:
        if self._by_storage is not None:
            key = self.storage(node)
            if key is not None:
                self._by_storage.setdefault(key, []).append(node)

    def writes(self) -> List[fx.Node]:
        return [n for n in self.graph.nodes if n.op == "call_function" and op_facts.written_nodes(n)]

    # ---------------------------------------------------------------- hazards

    def inside_hazards(self, w: fx.Node) -> List[Hazard]:
        """The ``inside`` hazards of one write."""
        self._absent = set()
        return self._inside(w)

    def hazards(self, writes: Optional[Iterable[fx.Node]] = None, absent: Iterable[fx.Node] = ()) -> List[Hazard]:
        """Hazards involving ``writes`` (default: every write of the graph), ignoring the
        ``absent`` nodes (about to be erased)."""
        self._absent = set(absent)
        writes = self.writes() if writes is None else [w for w in writes if not w._erased and w not in self._absent]
        found: List[Hazard] = []
        seen: Set[Tuple] = set()
        for w in writes:
            if self.lowered:
                found_here = self._dtype_views(w) + self._inside(w) + self._deferred(w) + self._reordered(w) \
                    + self._concat_inputs(w)
            else:                                # op by op: only an op's own overlapping operand
                found_here = self._inside(w)
            for h in found_here:
                key = (h.kind, h.write, h.reader, h.operand)
                if key not in seen:
                    seen.add(key)
                    found.append(h)
        return found

    def _dtype_views(self, w: fx.Node) -> List[Hazard]:
        """A write into memory seen through a view of another dtype (``x.view(torch.int32)`` of a
        float ``x``): Inductor lowers the store as a conversion of the value, not a store of its
        bits (found by the fuzzer: 3 stored as 1077936128.0).  No copy repairs it."""
        out = []
        for d in op_facts.written_nodes(w):
            root, steps = layout_maps.chain_to(d)
            for source, view in zip((root,) + steps, steps):
                vs, vv = fake_value(source), fake_value(view)
                if vs is not None and vv is not None and vs.dtype != vv.dtype:
                    out.append(Hazard("dtype_view", w, w, view))
                    break
        return out

    def _reordered(self, w: fx.Node) -> List[Hazard]:
        """A buffer the graph computes (not an input) written in part through a view, then as a
        whole by an in-place op (``copy_(m[1], s); m.mul_(2)``): Inductor runs the whole write
        first and the partial one after it, so the part keeps the value written last (seen in
        its generated code; fuzz p559, where its own reinplacing made the whole write).  An
        indexed update with integer indices writes only its elements and keeps the order."""
        out = []
        for d in op_facts.written_nodes(w):
            root, steps = layout_maps.chain_to(d)
            if root.op == "placeholder" or self.storage(root) is None:
                continue
            for other in self._index().get(self.storage(root), []):
                if other is w or other in self._absent or other._erased:
                    continue
                for d2 in op_facts.written_nodes(other):
                    root2, steps2 = layout_maps.chain_to(d2)
                    if root2 is not root:
                        continue
                    if steps and not steps2 and w < other and _whole_write(other):
                        out.append(Hazard("reordered", other, w, d))
                    elif not steps and steps2 and other < w and _whole_write(w):
                        out.append(Hazard("reordered", w, other, d2))
        return out

    def _concat_inputs(self, w: fx.Node) -> List[Hazard]:
        """A write into the result of a ``cat`` (through views of it) while a lazy input of the
        ``cat`` is read after the write: Inductor computes such an input straight into its slice
        of the result (``ConcatKernel``: the input's buffer is a view of the result's), so the
        later reader sees the write (fuzz p3718: a custom op written back into a ``split`` item
        of a ``cat``, and the copy of one of its inputs into the graph's input after it)."""
        out = []
        for d in op_facts.written_nodes(w):
            root, _ = layout_maps.chain_to(d)
            if root.op != "call_function" or op_facts.resolved(root.target) is not torch.ops.aten.cat.default:
                continue
            for a in dict.fromkeys(x for x in (root.args[0] if root.args else ()) if isinstance(x, fx.Node)):
                if not self.is_lazy(a):
                    continue
                reader = self._consumed_after(a, w, skip=root)
                if reader is not None:
                    out.append(Hazard("concat_input", w, reader, a))
        return out

    def _written_regions(self, w: fx.Node) -> List[Tuple[fx.Node, Optional[regions.Region]]]:
        return [(d, self.region(d)) for d in op_facts.written_nodes(w)]

    def _conflicts(self, a: fx.Node, targets) -> bool:
        """Reading ``a`` may touch memory one of ``targets`` (written regions) covers."""
        key = self.storage(a)
        if key is None:
            return False
        ra = self.region(a)
        for d, rd in targets:
            if self.storage(d) != key:
                continue
            if ra is None or rd is None or overlap.may_overlap(ra, rd):
                return True
        return False

    def _inside(self, w: fx.Node) -> List[Hazard]:
        """Reads inlined into the loop of write ``w`` that touch what it writes elsewhere.

        The walk carries, for each node of the cone, the memory region whose element ``i``
        is written with the node's element ``i`` (None once ops in between remap positions):
        a read of exactly that region is a read of the element being written, which is safe."""
        targets = self._written_regions(w)
        if not targets:
            return []
        out: List[Hazard] = []
        stack: List[Tuple[fx.Node, Optional[regions.Region]]] = [(w, None)]
        visited = {_visit_key(w, None)}
        budget = CONE_BUDGET
        while stack:
            reader, expected = stack.pop()
            for a, want in self._reads(reader, w, targets, expected):
                if a in self._absent:
                    continue
                lazy = self._lazy_source(a)
                if lazy is not None:
                    # a node reached along two paths is walked for each element correspondence
                    # (seed 103 p855: `x + x.flip(1)` reaches `x` element for element and flipped)
                    nxt = want if lazy is a or _same_elements(a, lazy) else None
                    key = _visit_key(lazy, nxt)
                    if key not in visited:
                        visited.add(key)
                        budget -= 1
                        if budget < 0:
                            return [Hazard("inside", w, reader, a)]
                        stack.append((lazy, nxt))
                    continue
                if self._conflicts(a, targets) and not (want is not None and _same(self.region(a), want)):
                    out.append(Hazard("inside", w, reader, a))
        return out

    def _reads(self, reader: fx.Node, w: fx.Node, targets, expected) -> List[Tuple[fx.Node, Optional[regions.Region]]]:
        """The tensors ``reader`` reads, each with the region its element ``i`` must come from
        for the read to be element-for-element with the write (None: no such correspondence)."""
        shape = _shape(reader) if reader is not w else _shape(targets[0][0])
        operands = _tensor_operands(reader)
        if reader is w and op_facts.is_foreach(w.target):
            return _foreach_reads(w, targets)
        if reader is w:
            # the operands in the positions the op reads: the written tensor itself can be one of
            # them too (`index_put_(x, idx, x)` after a pass dropped the values' clone)
            region = targets[0][1]
            target = w.target
            operands = _read_operands(w)
            if op_facts.is_copy_target(target) or op_facts.is_pointwise(target):
                return [(a, region if _shape_is(a, shape) else None) for a in operands]
            if _is_mask_update(w):
                mask = w.args[1][0]
                return [(a, region if a is mask else None) for a in operands]
            return [(a, None) for a in operands]
        target = reader.target
        if expected is not None:
            if op_facts.is_view_scatter(reader):
                base, src = reader.args[0], reader.args[1]
                inner = _scatter_region(reader, expected)
                return [(a, expected if a is base else inner if a is src else None) for a in operands]
            if target is torch.ops.aten.copy.default:
                return [(a, expected if _shape_is(a, shape) else None) for a in operands[1:]]
            if op_facts.is_pointwise(target) or op_facts.resolved(target) in _VALUE_PRESERVING:
                return [(a, expected if _shape_is(a, shape) else None) for a in operands]
        if target is torch.ops.aten.copy.default:
            return [(a, None) for a in operands[1:]]
        return [(a, None) for a in operands]

    def _lazy_source(self, a: fx.Node) -> Optional[fx.Node]:
        """The lazy node whose value ``a`` is (or is a view of), if any."""
        root = a
        while True:
            source = op_facts.alias_source(root)
            if source is None or op_facts.written_nodes(root):
                break
            root = source
        return root if self.is_lazy(root) else None

    def _deferred(self, w: fx.Node) -> List[Hazard]:
        """Lazy reads of what ``w`` writes that sit before ``w`` but are consumed after it."""
        targets = self._written_regions(w)
        out: List[Hazard] = []
        keys = {self.storage(d) for d, _ in targets} - {None}
        index = self._index()
        for key in keys:
            for alias in index.get(key, []):
                if alias._erased or alias in self._absent:
                    continue
                for reader in list(alias.users):
                    if reader is w or reader in self._absent or not (reader < w) or not self.is_lazy(reader):
                        continue
                    if not self._conflicts(alias, targets):
                        continue
                    consumer = self._consumed_after(reader, w)
                    if consumer is not None:
                        out.append(Hazard("deferred", w, reader, alias, consumer))
        return out

    def realized_before_copy(self, value: fx.Node) -> Tuple[bool, str]:
        """Does Inductor compute ``value`` into a buffer of its own when it copies it into a
        tensor (``realize_into``, the lowering of ``copy_`` into an input or a view of one)?
        It calls ``realize_hint`` on the source, which realizes a lazy pointwise value whose
        inlined computation loads at non-constant indices from more than one place
        (``nontrivial_read_count > 1``).  The loads are counted on the lazy cone: each distinct
        memory region it reads (a buffer or a view of one; Inductor merges equal loads) is one
        load; a tensor of one distinct element (a constant index, also broadcast) counts none.
        A load under an op that does not read element ``i`` for element ``i`` (a gather such as
        ``index``, a ``cat``, an unrolled reduction) is at other indices than the same region's
        element-for-element load, so the two are distinct loads (``roll``'s ``x - x[idx]``).
        Used to decide whether a repair is needed, never by the legality check, which does not
        rely on realization."""
        lazy = self._lazy_source(value)
        if lazy is None:
            return False, f"`{value.name}` is read from memory directly, not computed"
        loads: List[Tuple[fx.Node, Optional[fx.Node]]] = []
        seen: List[Tuple[Optional[fx.Node], object, regions.Region]] = []

        def new_load(a: fx.Node, gather: Optional[fx.Node]) -> bool:
            if (a, gather) in loads or _one_distinct_element(a):
                return False
            key, region = self.storage(a), self.region(a)
            if key is not None and region is not None:
                if any(g is gather and k == key and _same(r, region) for g, k, r in seen):
                    return False
                seen.append((gather, key, region))
            return True

        # each lazy node with the first op on its way from ``lazy`` that reads other indices
        # than it writes (None: every step so far is element for element)
        stack, visited = [(lazy, None)], {(lazy, None)}
        while stack:
            node, gather = stack.pop()
            if len(visited) > CONE_BUDGET:
                return False, "its computation is too large to count"
            here = gather if gather is not None or _element_for_element(node) else node
            for a in _loaded_operands(node):
                inner = self._lazy_source(a)
                if inner is not None:
                    if (inner, here) not in visited:
                        visited.add((inner, here))
                        stack.append((inner, here))
                elif new_load(a, here):
                    loads.append((a, here))
        names = ", ".join(f"`{a.name}`" + (f" through `{g.name}`" if g is not None else "") for a, g in loads) or "nothing"
        return len(loads) > 1, f"`{value.name}` is computed from {len(loads)} load(s) ({names})"

    def _consumed_after(self, reader: fx.Node, w: fx.Node, skip: Optional[fx.Node] = None) -> Optional[fx.Node]:
        """A consumer, through lazy nodes and views of them, of ``reader``'s value that comes
        after ``w`` (consumption by ``w`` itself is the "inside" check's business), not through
        ``skip``."""
        stack, visited, budget = [reader], {reader, skip}, CONE_BUDGET
        while stack:
            n = stack.pop()
            for user in n.users:
                if user in visited or user is w or user in self._absent:
                    continue
                visited.add(user)
                budget -= 1
                if budget < 0 or user.op == "output" or w < user:
                    return user
                if self.is_lazy(user) or op_facts.is_view_node(user):
                    stack.append(user)
        return None


#: Ops whose element i is their operand's element i (beyond those tagged pointwise).
_VALUE_PRESERVING = frozenset({torch.ops.aten.clone.default, torch.ops.aten._to_copy.default})


def _foreach_reads(w: fx.Node, targets) -> List[Tuple[fx.Node, Optional[regions.Region]]]:
    """An in-place foreach op is pointwise per list element: element ``i`` of every list operand
    is read to write element ``i`` of the written list, so a read of ``args[k][i]`` is safe
    exactly where it is the region written ``i``-th (itself, usually).  Tensors outside the
    lists (a scalar tensor, broadcast) pair with nothing."""
    out: List[Tuple[fx.Node, Optional[regions.Region]]] = []
    for arg in list(w.args) + list(w.kwargs.values()):
        if isinstance(arg, (list, tuple)):
            for i, a in enumerate(arg):
                if isinstance(a, fx.Node):
                    want = targets[i][1] if i < len(targets) and _shape_is(a, _shape(targets[i][0])) else None
                    out.append((a, want))
        elif isinstance(arg, fx.Node):
            out.append((arg, None))
    return out


def _whole_write(w: fx.Node) -> bool:
    """``w`` writes every element of what it writes (an in-place op on the tensor, a mask
    update), as opposed to an indexed update with integer indices."""
    if w.target in (torch.ops.aten.index_put_.default, torch.ops.aten._unsafe_index_put.default,
                    torch.ops.aten.index_put.default):
        return _is_mask_update(w)
    return True


def _is_mask_update(w: fx.Node) -> bool:
    """``index_put_(x, [mask], v)`` with a boolean mask shaped like ``x``: writes element i
    only where ``mask[i]``, reading ``mask`` element for element."""
    if w.target not in (torch.ops.aten.index_put_.default, torch.ops.aten.index_put.default):
        return False
    indices = w.args[1]
    if not (isinstance(indices, (list, tuple)) and len(indices) == 1 and isinstance(indices[0], fx.Node)):
        return False
    mask, dst = fake_value(indices[0]), fake_value(w.args[0])
    return mask is not None and dst is not None and mask.dtype == torch.bool and tuple(mask.shape) == tuple(dst.shape)


def _visit_key(node: fx.Node, want: Optional[regions.Region]) -> tuple:
    """A walked node with the region its elements must come from (by identity where the region
    holds symbolic sizes, which do not hash)."""
    try:
        hash(want)
    except TypeError:
        return (node, id(want))
    return (node, want)


def _scatter_region(scatter: fx.Node, base_region: regions.Region) -> Optional[regions.Region]:
    """Where a view scatter puts its source, given where its base's elements go."""
    try:
        target = regions.scatter_destination_of_region(scatter, base_region)
    except Exception:  # noqa: BLE001
        return None
    return target


def _same(a: Optional[regions.Region], b: Optional[regions.Region]) -> bool:
    return a is not None and b is not None and _normalized(a) == _normalized(b)


def _normalized(r: regions.Region) -> regions.Region:
    strides = tuple(0 if s == 1 else st for s, st in zip(r.sizes, r.strides))
    return regions.Region(r.storage, r.offset, tuple(r.sizes), strides, r.itemsize)


def _read_operands(w: fx.Node) -> List[fx.Node]:
    """The tensor operands of a write in the argument positions it reads (not those it writes;
    an op without a schema writes its first)."""
    written = None if op_facts.is_op_overload(w.target) else (frozenset({0}), frozenset())
    return _tensor_operands_of(op_facts.read_arguments(w, written))


def _tensor_operands_of(value) -> List[fx.Node]:
    out: List[fx.Node] = []

    def visit(a):
        if isinstance(a, fx.Node):
            if fake_value(a) is not None:
                out.append(a)
        elif isinstance(a, (list, tuple)):
            for x in a:
                visit(x)
        elif isinstance(a, dict):
            for x in a.values():
                visit(x)

    visit(value)
    return out


def _tensor_operands(node: fx.Node) -> List[fx.Node]:
    return _tensor_operands_of((node.args, node.kwargs))


#: Views whose element i is their source's element i when the shape is unchanged.
_IDENTITY_VIEWS = frozenset({torch.ops.aten.view.default, torch.ops.aten.view.dtype, torch.ops.aten._unsafe_view.default,
                             torch.ops.aten.reshape.default, torch.ops.aten.alias.default})


def _same_elements(view: fx.Node, source: fx.Node) -> bool:
    """``view`` is ``source`` seen element for element: every step between them is a
    reshape to the same shape or a reinterpretation as a dtype of the same size."""
    vs = fake_value(source)
    node = view
    for _ in range(64):
        if node is source:
            return True
        val = fake_value(node)
        if node.op != "call_function" or op_facts.resolved(node.target) not in _IDENTITY_VIEWS or val is None \
                or vs is None or not layout_maps.same_shape(val.shape, vs.shape) or val.element_size() != vs.element_size():
            return False
        node = node.args[0] if node.args and isinstance(node.args[0], fx.Node) else None
        if node is None:
            return False
    return False


def _loaded_operands(node: fx.Node) -> List[fx.Node]:
    """The tensor operands whose elements ``node``'s computation loads: not those it takes only
    the size or dtype of (``zeros_like(x)``, ``self`` of the functional ``copy``)."""
    target = op_facts.resolved(node.target) if node.op == "call_function" else None
    if target is torch.ops.aten.copy.default:
        return _tensor_operands(node)[1:]
    name = getattr(getattr(target, "overloadpacket", None), "__name__", "")
    if name.endswith("_like") or name.startswith("new_"):
        return []
    return _tensor_operands(node)


def _element_for_element(node: fx.Node) -> bool:
    """``node`` computes its element ``i`` from element ``i`` of its operands (broadcast
    aside): a pointwise op, a clone or a dtype conversion, or the functional ``copy``."""
    target = op_facts.resolved(node.target) if node.op == "call_function" else None
    return target is not None and (op_facts.is_pointwise(target) or target in _VALUE_PRESERVING
                                   or target is torch.ops.aten.copy.default)


def _one_distinct_element(node: fx.Node) -> bool:
    """Every index reads the same element (size-1 or stride-0 dimensions only): Inductor loads it
    at a constant index."""
    val = fake_value(node)
    return val is not None and all(statically_known_true(size == 1) or statically_known_true(stride == 0)
                                   for size, stride in zip(val.shape, val.stride()))


def _unrolled_reduction(node: fx.Node) -> bool:
    """A reduction Inductor lowers as a pointwise loop body: over one element, or over fewer
    than ``unroll_reductions_threshold`` elements of a static size (``Reduction.create``)."""
    if not (op_facts.is_op_overload(node.target) and torch.Tag.reduction in node.target.tags):
        return False
    out, operands = fake_value(node), _tensor_operands(node)
    inp = fake_value(operands[0]) if operands else None
    if out is None or inp is None or isinstance(out, (list, tuple)):
        return False
    if statically_known_true(inp.numel() == out.numel()):
        return True
    from torch._inductor import config

    n_in, n_out = inp.numel(), out.numel()
    if isinstance(n_in, int) and isinstance(n_out, int) and n_out:
        return n_in // n_out < config.unroll_reductions_threshold
    return False


def _shape_is(node: fx.Node, shape) -> bool:
    """``node``'s shape is ``shape`` wherever the graph runs (no guard installed)."""
    mine = _shape(node)
    return mine is not None and shape is not None and layout_maps.same_shape(mine, shape)


def _shape(node: fx.Node):
    val = fake_value(node)
    return None if val is None else tuple(val.shape)
