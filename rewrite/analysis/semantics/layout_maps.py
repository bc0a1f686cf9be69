"""Element maps of views, in the logical coordinates of the tensor they view.

A map ``(sizes, strides, offset)`` says which elements of a logical tensor ``V`` a view of it
holds: element ``i`` of the view is element ``offset + sum(i_k * strides[k])`` of ``V`` read in
row-major (contiguous) order.  Maps are computed by replaying the view ops on a fake contiguous
tensor of ``V``'s shape, so they are exact for every view op torch knows and stay symbolic on
symbolic shapes.  Two views of the same tensor hold the same elements in the same order exactly
when their maps are equal.
"""
from __future__ import annotations

import operator
from typing import Iterator, List, Optional, Sequence, Tuple

import torch
from torch._prims_common import is_non_overlapping_and_dense_or_false
from torch.fx.experimental.symbolic_shapes import statically_known_true
import torch.fx as fx

from rewrite.analysis.facts import functionalized, op_facts
from rewrite.analysis.semantics import regions
from rewrite.analysis.semantics.symbolic import _proved_le
from rewrite.analysis.facts.fake import fake_args, fake_mode_of, fake_value

Map = Tuple[tuple, tuple, object]


def dim_key(x):
    """An int, or the sympy expression of a symbolic size (never specialized)."""
    if isinstance(x, torch.SymInt):
        expr = x.node.expr
        return int(expr) if getattr(expr, "is_Integer", False) else expr
    return x


def shape_key(shape) -> tuple:
    return tuple(dim_key(s) for s in shape)


def same_shape(a, b) -> bool:
    """Whether two shapes are equal wherever the compiled graph runs: the same expressions, or
    sizes the shape environment knows equal from its guards (``Min(s0, s1 - 1)`` and ``3`` after a
    broadcast guarded them equal).  Never installs a guard."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if dim_key(x) == dim_key(y):
            continue
        if not isinstance(x, torch.SymInt) and not isinstance(y, torch.SymInt):
            return False
        if not statically_known_true(x == y):
            return False
    return True


def contiguous_strides(sizes: Sequence) -> tuple:
    strides, acc = [], 1
    for s in reversed(tuple(sizes)):
        strides.append(acc)
        acc = acc * s
    return tuple(reversed(strides))


def map_of_tensor(t: torch.Tensor) -> Map:
    sizes = shape_key(t.shape)
    strides = tuple(0 if s == 1 else dim_key(st) for s, st in zip(sizes, t.stride()))
    return sizes, strides, dim_key(t.storage_offset())


def identity_map(shape) -> Map:
    sizes = shape_key(shape)
    return sizes, tuple(0 if s == 1 else st for s, st in zip(sizes, contiguous_strides(sizes))), 0


def is_identity(m: Map, shape) -> bool:
    return m == identity_map(shape)


def contiguous_fake(like: torch.Tensor, shape=None) -> Optional[torch.Tensor]:
    """A fake contiguous tensor with ``like``'s dtype and device (and ``shape``), under the fake
    mode ``like`` belongs to."""
    mode = fake_mode_of(like)
    if mode is None:
        return None
    shape = tuple(like.shape if shape is None else shape)
    with mode:
        return torch.empty_strided(shape, contiguous_strides(shape), dtype=like.dtype, device=like.device)


def apply_step(step: fx.Node, t: torch.Tensor) -> torch.Tensor:
    """Apply the view ``step`` (a view op node, an in-place op returning its destination, or
    ``getitem`` of a view-list op) to ``t`` instead of its real source."""
    target = step.target
    if op_facts.is_getitem(step):
        producer = step.args[0]
        return producer.target(t, *fake_args(producer.args[1:]), **fake_args(producer.kwargs))[step.args[1]]
    if op_facts.returns_written(target):
        return t
    return target(t, *fake_args(step.args[1:]), **fake_args(step.kwargs))


def replay(steps: Sequence[fx.Node], base: torch.Tensor) -> Optional[Map]:
    """The map of ``steps`` applied in order to ``base`` (a fake tensor laid out as the map's
    coordinates).  None when a step cannot be replayed (``as_strided`` on a base whose real
    layout differs from the replayed one, ops that fail on fake values), when the replayed
    result is no view of ``base`` (a ``reshape`` that copies laid out as replayed: its strides
    say nothing of which elements it holds), when a step may copy and its own fake values
    cannot say it did not, and when the result has another dtype (its map would count elements
    of another size: ``x.view(torch.int32)`` of a float ``x`` is not ``x``)."""
    mode = fake_mode_of(base)
    if mode is None:
        return None
    t = base
    try:
        with mode:
            for step in steps:
                if op_facts.is_op_overload(step.target) and op_facts.view_or_copy(step.target) \
                        and op_facts.copies_its_source(step, step.args[0]) is not False:
                    return None
                t = apply_step(step, t)
    except Exception:  # noqa: BLE001 - a step we cannot replay has no known map
        return None
    if t.dtype != base.dtype or op_facts.shares_storage(t, base) is not True:
        return None
    return map_of_tensor(t)


def chain_to(node: fx.Node) -> Tuple[fx.Node, Tuple[fx.Node, ...]]:
    """``(root, steps)``: the node owning ``node``'s memory and the view steps from it."""
    steps = []
    while True:
        source = op_facts.alias_source(node)
        if source is None:
            return node, tuple(reversed(steps))
        steps.append(node)
        node = source


def owner_storage(node: fx.Node) -> Optional[object]:
    """The storage key (``regions.default_storage_key``) of the memory ``node``'s value lives
    in, taken from the node owning that memory (``chain_to``): the fake values of views and
    in-place results a pass rewired may be stale.  None without a fake storage."""
    val = fake_value(chain_to(node)[0])
    if val is None:
        return None
    try:
        return regions.default_storage_key(val)
    except Exception:  # noqa: BLE001 - no storage (sparse, nested...)
        return None


def _as_strided_is_absolute(steps: Sequence[fx.Node]) -> bool:
    return any(getattr(s.target, "__name__", "").startswith("as_strided") for s in steps)


def is_as_strided_scatter(node) -> bool:
    return (isinstance(node, fx.Node) and node.op == "call_function"
            and op_facts.is_view_scatter_target(node.target)
            and op_facts._base_name(node.target) == "as_strided_scatter")


def scatter_addresses_a_copy(scatter: fx.Node, base: Optional[fx.Node] = None) -> bool:
    """``as_strided_scatter(base, src, size, stride, offset)`` writes through ``as_strided`` of a
    clone of ``base``, and the clone starts a storage of its own: it addresses the same elements
    as ``base.as_strided(size, stride, offset)`` (what the program wrote through, eagerly) only
    when ``base`` is dense and starts its storage.  Otherwise (an input at a storage offset,
    a strided input) AOTAutograd's functional graph does not compute what the program does:
    it reads the program's view with ``as_strided`` and writes it back with the scatter, at other
    elements, and only an in-place write (Inductor's reinplacing) gives the program's result.
    True for such a scatter (with ``base`` instead of its first argument, when given), or when
    the base's layout is unknown."""
    if not is_as_strided_scatter(scatter):
        return False
    base = base if base is not None else (scatter.args[0] if scatter.args else None)
    val = fake_value(base)
    if val is None:
        return True
    try:
        dense = is_non_overlapping_and_dense_or_false(val)     # (no guard: False when it cannot tell)
    except Exception:  # noqa: BLE001
        return True
    return not (dense and statically_known_true(val.storage_offset() == 0))


def is_as_strided_read(node) -> bool:
    """``as_strided`` (or its ``_copy``): a view whose arguments are storage addresses."""
    return (isinstance(node, fx.Node) and node.op == "call_function" and op_facts.is_op_overload(node.target)
            and op_facts._base_name(node.target) in ("as_strided", "as_strided_copy"))


def functional_update_base(node: fx.Node) -> Optional[fx.Node]:
    """The tensor a functional op may stand for, having been an in-place write to it before
    functionalization: the base of a view scatter, the first argument of an op that has an
    in-place variant (``mul`` for ``x.mul_(y)``, ``aten.copy`` for ``x.copy_(y)``), the base a
    v2 call's result is the new value of, the carried input of a ``while_loop`` result.
    Over-approximate on purpose: it decides where the functional reading may not be the
    program's."""
    if node.op != "call_function" or not node.args:
        return None
    if node.target is operator.getitem and isinstance(node.args[0], fx.Node) and isinstance(node.args[1], int):
        written = v2_base_result(node)
        return written[0].kwargs["_all_bases"][written[1]] if written else _loop_state_in(node.args[0], node.args[1])
    if not op_facts.is_op_overload(node.target):
        return None
    base = node.args[0]
    if not isinstance(base, fx.Node):
        return None
    target = node.target
    if op_facts.is_view_scatter_target(target) or op_facts.inplace_variant(target) is not None:
        return base
    return None


def v2_base_result(node: fx.Node) -> Optional[Tuple[fx.Node, int]]:
    """``(call, i)`` where ``node`` is ``getitem(call, k)`` of an ``auto_functionalized_v2`` call
    and result ``k`` is the new value of the call's base ``i`` (the results after the wrapped
    op's own)."""
    call = node.args[0] if node.target is operator.getitem and node.args else None
    if not (functionalized.is_functionalized_v2(call) or functionalized.is_functionalized_hop_v2(call)):
        return None
    val, bases = call.meta.get("val"), call.kwargs.get("_all_bases") or ()
    if not isinstance(val, (list, tuple)) or not isinstance(node.args[1], int):
        return None
    i = node.args[1] - (len(val) - len(bases))
    return (call, i) if 0 <= i < len(bases) and isinstance(bases[i], fx.Node) else None


def _loop_state_in(loop: fx.Node, index: int) -> Optional[fx.Node]:
    """The carried input a ``while_loop``'s result ``index`` is the final value of (a dependency
    threads a tensor the loop writes through the loop as carried state: fuzz seed 43 p255)."""
    if loop.op != "call_function" or loop.target is not torch.ops.higher_order.while_loop or len(loop.args) < 3:
        return None
    carried = loop.args[2]
    if isinstance(carried, (list, tuple)) and index < len(carried) and isinstance(carried[index], fx.Node):
        return carried[index]
    return None


def _is_written(node: fx.Node) -> bool:
    """Does some op of the graph write ``node``'s memory (itself or through a view of it)?"""
    return writer_of(node) is not None


def writer_of(node: fx.Node) -> Optional[fx.Node]:
    """An op of the graph that writes ``node``'s memory (itself or through a view of it)."""
    for cur in op_facts.self_and_views(node):
        for user in cur.users:
            if cur in op_facts.written_nodes(user):
                return user
    return None


def is_callers_input(placeholder: fx.Node) -> bool:
    """An input of the graph AOTAutograd compiled (it gives each one a descriptor, ``meta["desc"]``:
    an argument, a parameter, a tangent...), not an operand of a higher-order op's function, which
    Inductor hands the post-grad passes as graphs of their own (a ``while_loop``'s state)."""
    return placeholder.meta.get("desc") is not None


def fills_its_storage(t: torch.Tensor) -> bool:
    """Dense, at storage offset 0 and as large as its storage (statically known; no guard): a
    fresh tensor of its strides, so ``as_strided`` addresses the same elements in it and in a
    copy made with them."""
    try:
        return (is_non_overlapping_and_dense_or_false(t) and statically_known_true(t.storage_offset() == 0)
                and statically_known_true(t.untyped_storage().nbytes() == t.numel() * t.element_size()))
    except Exception:  # noqa: BLE001 - no storage, unbacked sizes...
        return False


def _same_storage_layout(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Do ``as_strided`` addresses name the same elements in ``a``'s storage and in ``b``'s?
    Yes when both start their storage, have the same strides and hold nothing more (statically
    known; no guard is installed, so "cannot tell" is no)."""
    try:
        return fills_its_storage(a) and fills_its_storage(b) and _same_strides(a, b)
    except Exception:  # noqa: BLE001 - no storage, unbacked sizes...
        return False


def faked_alike(a: Optional[torch.Tensor], b: Optional[torch.Tensor]) -> bool:
    """Do ``a`` and ``b``'s fake values have the same strides and both start their storage
    (statically known)?  A fresh value faked as the strided input it stands for (a scatter of a
    ``base[:, ::2]``): the functional graph's storage addresses name the elements the program's
    did, as far as the fake values tell, though neither fills its storage (fuzz program 1830:
    stock Inductor right).  Not at another offset: a buffer is allocated at offset 0 whatever
    its fake value says (fuzz seed 43 p255: a loop's result faked at its input's offset 1)."""
    if a is None or b is None:
        return False
    try:
        return (_same_strides(a, b) and statically_known_true(a.storage_offset() == 0)
                and statically_known_true(b.storage_offset() == 0))
    except Exception:  # noqa: BLE001 - no storage, unbacked sizes...
        return False


#: Views that keep the elements' order when the tensor is read flat (row-major).
_FLAT_ORDER_VIEWS = frozenset({
    torch.ops.aten.view.default, torch.ops.aten._unsafe_view.default, torch.ops.aten.reshape.default,
    torch.ops.aten.alias.default, torch.ops.aten.unsqueeze.default, torch.ops.aten.squeeze.dim,
    torch.ops.aten.squeeze.dims, torch.ops.aten.squeeze.default, torch.ops.aten.flatten.using_ints,
})


def _flat_as_strided(view: fx.Node, source: fx.Node) -> bool:
    """An ``as_strided`` that keeps the flat order: the view is contiguous at storage offset 0
    over a contiguous source that starts its storage, so flat element ``k`` of both is storage
    address ``k`` (autograd's ``as_strided`` backward: ``full([20]).as_strided([4, 5], [5, 1], 0)``;
    fuzz seed 193 p789)."""
    if not is_as_strided_read(view):
        return False
    v, s = fake_value(view), fake_value(source)
    if v is None or s is None:
        return False
    try:
        return (v.is_contiguous() and s.is_contiguous() and statically_known_true(v.storage_offset() == 0)
                and statically_known_true(s.storage_offset() == 0))
    except Exception:  # noqa: BLE001 - unbacked sizes...
        return False


def _flat_alike(a: torch.Tensor, b: torch.Tensor, operand: fx.Node, memory: fx.Node) -> bool:
    """Both contiguous, starting and filling their storages, ``a``'s no larger than ``b``'s, and
    every step from ``operand`` back to ``memory`` keeps the flat order of the elements (a
    reshaping view, a contiguous ``as_strided`` at offset 0, or a functional update shaped as
    what it updates): storage address ``k`` holds flat element ``k`` of both, though their shapes
    differ (fuzz seed 71 p225: ``x0.view(-1).view(4, 4).add_`` then ``x0.as_strided(...)`` on the
    ``(2, 2, 4)`` input; the eager base stopped).  Sizes are compared by the prover, which knows
    that ``5*s`` is at most ``Max(2, 5*s)`` (autograd's ``as_strided`` backward sizes its buffer
    so; fuzz seed 193 p789, dynamic)."""
    try:
        if not (fills_its_storage(a) and fills_its_storage(b) and a.is_contiguous() and b.is_contiguous()
                and _proved_le(a.numel(), b.numel())):
            return False
    except Exception:  # noqa: BLE001 - unbacked sizes...
        return False
    node = operand
    for step, source, is_view in storage_steps(operand):
        if node is memory:
            break
        keeps_flat_order = (step.target in _FLAT_ORDER_VIEWS or _flat_as_strided(step, source)) if is_view \
            else _keeps_shape(step, source)
        if not keeps_flat_order:
            return False
        node = source
    return node is memory


def v2_recorded_layout(base: fx.Node) -> Optional[torch.Tensor]:
    """The fake value whose strides and storage offset an ``auto_functionalized_v2`` call recorded
    its views of ``base`` in: the layout functionalization's wrapper of the program's tensor had.
    A direct update (``x.add_(y)``, ``x.copy_(y)``, an earlier call's new base) gives the wrapper
    its result's layout; an update through a view (a view scatter) regenerates the value and keeps
    the wrapper's layout.  So: the nearest direct update's fake value, or the input's where there is
    none (fuzz seed 103 p571: ``add``'s, contiguous, of a ``(10, 2)``-strided input; corpus p3089:
    the input's, at offset 5, under a ``select_scatter``).  None where a view lies on the way."""
    cur = base
    for _ in range(10000):
        if op_facts.alias_source(cur) is not None:
            return None
        if cur.op == "call_function" and op_facts.is_op_overload(cur.target) \
                and op_facts.is_view_scatter_target(cur.target) and cur.args and isinstance(cur.args[0], fx.Node):
            cur = cur.args[0]
            continue
        return fake_value(cur)
    return None


def same_layout_at_offset(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Same strides and storage offset (statically known; "cannot tell" is no)."""
    try:
        return _same_strides(a, b) and statically_known_true(a.storage_offset() == b.storage_offset())
    except Exception:  # noqa: BLE001
        return False


def _same_strides(a: torch.Tensor, b: torch.Tensor) -> bool:
    return len(a.stride()) == len(b.stride()) and all(statically_known_true(x == y)
                                                      for x, y in zip(a.stride(), b.stride()))


def addresses_storage(node) -> bool:
    """``as_strided`` and ``as_strided_scatter``: ops whose arguments are storage addresses."""
    return is_as_strided_scatter(node) or is_as_strided_read(node)


def storage_steps(node: fx.Node) -> Iterator[Tuple[fx.Node, fx.Node, bool]]:
    """Each step from ``node`` back through views and functional updates to the memory it stands
    for, nearest first: ``(step, its source, whether step is a view of it)``; the last source is
    the memory."""
    cur = node
    for _ in range(10000):                      # (a graph is finite; the bound keeps a cycle out)
        source = op_facts.alias_source(cur)
        is_view = source is not None
        if not is_view:
            source = functional_update_base(cur)
            if source is None:
                return
        yield cur, source, is_view
        cur = source


def storage_chain(node: fx.Node) -> Tuple[List[fx.Node], fx.Node]:
    """The functional updates (``functional_update_base``) on the way from ``node`` back through
    views and updates to the memory it stands for, nearest first, and that memory's node."""
    updates, cur = [], node
    for step, source, is_view in storage_steps(node):
        if not is_view:
            updates.append(step)
        cur = source
    return updates, cur


def _keeps_shape(update: fx.Node, base: fx.Node) -> bool:
    """A functional update shaped as what it updates (statically known)."""
    nv, bv = fake_value(update), fake_value(base)
    return nv is not None and bv is not None and same_shape(nv.shape, bv.shape)


def storage_addressed_operands(node) -> List[Tuple[fx.Node, Optional[int]]]:
    """The tensors ``node`` addresses by storage address, each with the index of the base among
    a v2 call's ``_all_bases`` (None for ``as_strided`` and ``as_strided_scatter``, whose operand 0
    it is): an ``auto_functionalized_v2`` call regenerates a written view that is no slice of its
    base as ``as_strided`` of the base, at the storage offset the view had in the program."""
    if addresses_storage(node):
        return [(node.args[0], None)] if node.args and isinstance(node.args[0], fx.Node) else []
    if not (functionalized.is_functionalized_v2(node) or functionalized.is_functionalized_hop_v2(node)):
        return []
    from torch._higher_order_ops.auto_functionalize import AsStridedViewInfo

    try:
        infos = functionalized.v2_view_infos(node)
    except Exception:  # noqa: BLE001 - view metadata it cannot read: nothing known to address
        return []
    bases = functionalized.nodes_in(node.kwargs.get("_all_bases"))
    indices = dict.fromkeys(i.base_index for i in infos if isinstance(i, AsStridedViewInfo)
                            and 0 <= i.base_index < len(bases))
    return [(bases[i], i) for i in indices]


def functional_reading_differs(node: fx.Node, inputs_are_operands: bool = False) -> str:
    """Why the functional graph does not address, at ``node``, the elements the program does
    ("" when it does).  ``as_strided`` addresses storage, and a functional graph replays the
    program's ``x.as_strided(...)`` on the value that stands for ``x`` at that point: a fresh
    tensor (a view scatter, ``copy``, ``mul`` ... of what ``x`` was) that starts a storage of its
    own, where eagerly ``x`` is still the memory it always was (an input at storage offset 2, say:
    fuzz program 2609).  The two address the same elements only when that memory starts its
    storage, fills it and has the fresh value's strides.  An input the graph never writes is no
    such memory: the fresh values computed from it were never the program's writes to it (a
    backward graph's scatters of its tangents); but the inputs of a higher-order op's function
    (``inputs_are_operands``, or no AOTAutograd descriptor: ``is_callers_input``) are its
    operands, which the program may write through them (a ``while_loop``'s state, fuzz program
    3577).  (An ``as_strided_scatter`` also writes through a clone of its base:
    ``scatter_addresses_a_copy``.)  A v2 call's ``as_strided`` views of its bases are such reads
    too (``storage_addressed_operands``; fuzz seed 0 p3089).  Only an in-place write of the
    whole chain (Inductor's reinplacing) gives such a program its meaning."""
    for operand, _ in storage_addressed_operands(node):
        why = operand_reading_differs(node, operand, inputs_are_operands)
        if why:
            return why
    return ""


def operand_reading_differs(node: fx.Node, operand: fx.Node, inputs_are_operands: bool = False) -> str:
    """``functional_reading_differs`` of one of the operands ``node`` addresses by storage."""
    updates, cur = storage_chain(operand)
    fresh = updates[0] if updates else None
    if cur.op == "placeholder" and not inputs_are_operands and is_callers_input(cur) and not _is_written(cur):
        return ""
    if is_as_strided_scatter(node) and scatter_addresses_a_copy(node):
        return (f"`{node.name}` (as_strided_scatter) writes through a copy of its base, which does not start "
                f"its storage or is not dense, where the program's as_strided addresses the base's own storage")
    if fresh is None:
        return ""                               # views of the memory itself: as in the program
    a, b = fake_value(fresh), fake_value(cur)
    if a is not None and b is not None and (_same_storage_layout(a, b) or _flat_alike(a, b, operand, cur)):
        return ""
    stands_for = functional_update_base(updates[-1])    # the view of `cur` the chain updates
    c = fake_value(stands_for) if stands_for is not None and stands_for is not cur else None
    if a is not None and c is not None and _same_storage_layout(a, c):
        return ""      # laid out as that view, in `cur`'s storage (`x.zero_()` of a transposed
        #                input: `full(...).permute(1, 0)`; fuzz seed 163 p828)
    if _operand_laid_out_as_memory(operand, fresh, cur):
        return ""
    what = op_facts._base_name(node.target) if op_facts.is_op_overload(node.target) else "auto_functionalized_v2"
    return (f"`{node.name}` ({what}) addresses the storage of `{fresh.name}`, a "
            f"fresh tensor standing for `{cur.name}`, whose storage the program's as_strided addresses "
            f"and which is laid out otherwise")


def _operand_laid_out_as_memory(operand: fx.Node, fresh: fx.Node, memory: fx.Node) -> bool:
    """Does storage address ``k`` name the same element of ``operand`` as of ``memory``, though
    ``fresh`` (the nearest update on the way) is laid out otherwise?  Yes when ``operand`` holds
    ``memory``'s elements at ``memory``'s coordinates (the views on the way compose to the
    identity; a functional update keeps its base's coordinates; no ``as_strided`` on the way), has
    ``memory``'s shape and strides, both fill their storage and ``fresh`` starts its own (a buffer
    is allocated at offset 0).  The compiled program lays ``operand`` out as faked: the eager base
    runs ATen, whose strides the fake values are, and Inductor gives an ``as_strided``'s input its
    fake strides, or for a view its fake stride order (``GraphLowering``: "as_strided ops ... same
    size/stride with eager"), which are the same strides for a view that fills its buffer.  Fuzz
    seed 173 p604: ``x0.transpose(0, 1)[:, 1:] = ...`` makes ``permute(slice_scatter(permute(x0)))``,
    a scatter laid out transposed whose permute is laid out as ``x0``; a v2 call regenerates its
    views from that permute (stock Inductor right, the eager base stopped)."""
    o, m, f = fake_value(operand), fake_value(memory), fake_value(fresh)
    if o is None or m is None or f is None:
        return False
    try:
        if not (fills_its_storage(m) and fills_its_storage(o) and statically_known_true(f.storage_offset() == 0)
                and same_shape(o.shape, m.shape) and _same_strides(o, m)):
            return False
    except Exception:  # noqa: BLE001 - no storage, unbacked sizes...
        return False
    views, node = [], operand
    for step, source, is_view in storage_steps(operand):
        if node is memory:
            break
        if is_view and is_as_strided_read(step):     # storage addresses: replayed on another layout than its own
            return False
        if is_view:
            views.append(step)
        elif not _keeps_shape(step, source):
            return False
        node = source
    if node is not memory:
        return False
    coordinates = map_from_root(memory, views[::-1])
    return coordinates is not None and is_identity(coordinates, m.shape)


def map_from_root(root: fx.Node, steps: Sequence[fx.Node]) -> Optional[Map]:
    """The map of the view reached by ``steps`` in the logical coordinates of ``root``."""
    root_val = fake_value(root)
    if root_val is None:
        return None
    if not steps:
        return identity_map(root_val.shape)
    if _as_strided_is_absolute(steps):
        # as_strided's arguments are storage addresses: they mean the same in logical
        # coordinates only when the root is contiguous and starts its storage.
        if map_of_tensor(root_val) != identity_map(root_val.shape):
            return None
    base = contiguous_fake(root_val)
    return None if base is None else replay(steps, base)


def view_of_map(value_like: torch.Tensor, m: Map) -> Optional[torch.Tensor]:
    """A fake tensor laid out as the map ``m`` over a contiguous tensor shaped like
    ``value_like``: replaying further view ops on it composes maps."""
    base = contiguous_fake(value_like)
    if base is None:
        return None
    try:
        shape_env = fake_mode_of(base).shape_env
        sizes = [_symint(x, shape_env) for x in m[0]]
        strides = [_symint(x, shape_env) for x in m[1]]
        with fake_mode_of(base):
            return base.as_strided(sizes, strides, _symint(m[2], shape_env))
    except Exception:  # noqa: BLE001
        return None


def _symint(x, shape_env):
    """A map entry (an int or a sympy expression of symbolic sizes) as a size argument: a
    SymInt over the same shape environment, with the hint of the sizes traced (no guard)."""
    if isinstance(x, int) or getattr(x, "is_Integer", False):
        return int(x)
    if shape_env is None:
        raise ValueError(f"symbolic map entry {x} without a shape environment")
    return shape_env.create_symintnode(x, hint=int(shape_env.optimization_hint(x)))


def compose_steps(value_like: torch.Tensor, m: Map, steps: Sequence[fx.Node]) -> Optional[Map]:
    """The map of ``steps`` applied to the view ``m`` of a tensor shaped like ``value_like``."""
    t = view_of_map(value_like, m)
    return None if t is None else replay(steps, t)


def scatter_map(scatter: fx.Node, base_shape_like: torch.Tensor, base_map: Optional[Map] = None) -> Optional[Map]:
    """Where ``X_scatter(base, src, *args)`` writes, as a map over the base's logical
    coordinates (or, with ``base_map``, over the coordinates of the tensor the base views)."""
    view_op = op_facts.view_op_for_scatter(scatter.target)
    if view_op is None:
        return None
    args = fake_args(scatter.args[2:])
    kwargs = fake_args(scatter.kwargs)
    if base_map is None:
        t = contiguous_fake(base_shape_like)
    else:
        t = view_of_map(base_shape_like, base_map)
    if t is None:
        return None
    if view_op.__name__.startswith("as_strided") and base_map is not None:
        return None
    try:
        with fake_mode_of(t):
            return map_of_tensor(view_op(t, *args, **kwargs))
    except Exception:  # noqa: BLE001
        return None


def view_copy_map(node: fx.Node, source_like: torch.Tensor) -> Optional[Map]:
    """For a functional view (``slice_copy``, ``_unsafe_view``, ``view_copy``...): the map of the
    view it copies, over its source's logical coordinates."""
    view_op = op_facts.view_op_of_view_copy(node.target)
    if view_op is None:
        return None
    base = contiguous_fake(source_like)
    if base is None:
        return None
    try:
        with fake_mode_of(base):
            view = view_op(base, *fake_args(node.args[1:]), **fake_args(node.kwargs))
    except Exception:  # noqa: BLE001
        return None
    if view.dtype != base.dtype or op_facts.shares_storage(view, base) is not True:
        return None                      # another dtype's elements, or no view (see ``replay``)
    return map_of_tensor(view)


def v2_view(info, bases_like: Sequence[torch.Tensor]) -> Tuple[Optional[torch.Tensor], Optional[Map]]:
    """The fake value of the view an ``auto_functionalized_v2`` call regenerates from its bases
    (``info``: torch's ``ViewInfo``), and its map in the logical coordinates of its base (None
    where unknown: ``as_strided`` addresses over a base that does not fill its storage)."""
    from torch._higher_order_ops.auto_functionalize import AliasViewInfo, AsStridedViewInfo, NotView

    base = bases_like[info.base_index]
    mode = fake_mode_of(base)
    if base is None or mode is None:
        return None, None
    info = _with_fake_sizes(info)
    if info is None:
        return None, None
    with mode:
        like = info.regenerate_view(list(bases_like))
        if isinstance(info, (NotView, AliasViewInfo)):
            return like, identity_map(base.shape)
        if isinstance(info, AsStridedViewInfo) and not (fills_its_storage(base)
                                                        and map_of_tensor(base) == identity_map(base.shape)):
            return like, _as_strided_within_dense_base(info, base)
        contiguous = contiguous_fake(base)
        if contiguous is None:
            return like, None
        bases = list(bases_like)
        bases[info.base_index] = contiguous
        return like, map_of_tensor(info.regenerate_view(bases))


def _as_strided_within_dense_base(info, base: torch.Tensor) -> Optional[Map]:
    """The map of ``as_strided(base, size, stride, offset)`` (absolute storage ``offset``) in
    ``base``'s coordinates, where ``base`` is laid out contiguously from its own storage offset
    and every address of the view provably lies inside it (an input that is a block of a larger
    tensor, its v2 views named by ``sym_storage_offset``: fuzz program 609); None otherwise
    (storage addresses that are not logical coordinates)."""
    sizes, strides = tuple(base.shape), tuple(base.stride())
    if not all(statically_known_true(a == b) for a, b, n in
               zip(strides, contiguous_strides(sizes), sizes) if not statically_known_true(n == 1)):
        return None
    relative = info.storage_offset - base.storage_offset()
    last = relative
    for n, st in zip(info.size, info.stride):
        if not statically_known_true(st >= 0) or not statically_known_true(n >= 1):
            return None
        last = last + (n - 1) * st
    if not (statically_known_true(relative >= 0) and statically_known_true(last < base.numel())):
        return None
    contiguous = contiguous_fake(base)
    if contiguous is None:
        return None
    with fake_mode_of(base):
        view = torch.as_strided(contiguous, info.size, info.stride, relative)
    return map_of_tensor(view)


def _with_fake_sizes(info):
    """A copy of a ``ViewInfo`` whose sizes, strides and offsets that are graph nodes (symbolic
    shapes) are their fake values (SymInts); None where one has none."""
    import copy

    def fake(v):
        if isinstance(v, fx.Node):
            return v.meta.get("val")
        if isinstance(v, (list, tuple)):
            return type(v)(fake(x) for x in v)
        return v

    out = copy.copy(info)
    for name, value in vars(info).items():
        converted = fake(value)
        if converted is None and value is not None:
            return None
        if isinstance(converted, (list, tuple)) and any(x is None for x in converted):
            return None
        setattr(out, name, converted)
    return out
