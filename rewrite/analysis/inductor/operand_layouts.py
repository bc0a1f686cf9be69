"""Computed tensors laid out as their fake values say, where Inductor's lowering relies on it.

**``cond`` operands.**  Stock Inductor (torch 2.13) compiles each branch of a ``cond`` for the strides of its operands'
fake values, and checks them on entry (``assert_size_stride``), but it only *realizes* the
operands: it never requires those strides of them.  An operand that is computed in the graph
gets whatever layout Inductor chose for it, and the program stops on its first call (fuzz
programs 1935, 2259, 2720 and 3443: stock and rewrite raised, aot_eager right):

- a ``slice_scatter`` into a strided input has the input's non-dense strides as its fake value,
  while Inductor writes it into a dense buffer;
- a dense value whose buffer is laid out by another user (a ``copy_`` into a transposed input
  makes its source transposed).

This step asks of a ``cond``'s operands what Inductor asks of a ``while_loop``'s inputs (there
exact strides; here their order, which fixes them for a dense value up to dimensions of size 1,
which Inductor's check ignores).  Before each ``cond`` (a
plain one, or one functionalized as ``auto_functionalized_v2``, where the written operands are
regenerated from bases), a computed operand or base goes through ``inductor_force_stride_order``,
whose lowering freezes a buffer whose layout is still free (no copy) and copies one that is laid
out otherwise.  For a dense fake value the order of its strides fixes them.  A non-dense one is
first copied densely (``clone``, contiguous); the new nodes' fake values say so.  A copy is a new
value, so a later reader of the old node is not affected by a branch that writes the copy; but
the force alone is no copy where the buffer already has the layout, while Inductor's reinplacing
takes it for a tensor of its own and lets the functionalized branch write it: a base of
``auto_functionalized_v2`` read after the ``cond`` is copied first (seed 103 p181: noop removal
made the program's clone of ``x1`` the base itself, and the output came back with the branch's
write; stock clones such a base too).  Graph
inputs and values in their memory keep their layout and are left alone; so is a non-dense base
that an operand is regenerated from by ``as_strided`` (its view would move with the layout), and
one whose ``as_strided`` views address an input's storage at the offsets the program's views had
(``layout_maps.operand_reading_differs``): right only where Inductor writes it in place into the
input, which a force in between stops (fuzz seed 197 p288: a ``diagonal_scatter`` of a row range
at storage offset 10; the regenerated diagonal ran past the end of the forced buffer).  Values
of one call that share memory (an operand viewing a base, seed 199 p57) are left alone too: the
branch reads its write through that memory, and a force is a copy of its own on the eager base.

**The memory a custom op's functionalized call writes.**  Inductor's decomposition of
``auto_functionalized`` (v1) clones each written argument it does not write in place with
``clone_preserve_strides``, which reads the argument's storage by ``as_strided`` from offset 0
with the argument's fake strides, and that of ``auto_functionalized_v2`` regenerates every
written view from its base by ``as_strided``.  Where that memory belongs to a tensor computed in
the graph, its buffer must be laid out as its fake value says: a ``slice_scatter`` into a
transposed input has column-major strides in its fake value, Inductor made a row-major buffer,
and the clones read other elements, past its end too (fuzz seed 31 p72: a v1 list of two rows of
the input after an indexed write through its transpose; stock wrong, aot_eager right).  The
computed tensor that owns the memory (dense, at storage offset 0) goes through
``inductor_force_stride_order`` right after it is made, and every user reads the result."""
from __future__ import annotations

from typing import List, Optional

import torch
import torch.fx as fx
from torch._inductor import inductor_prims
from torch.fx.passes.shape_prop import _extract_tensor_metadata
from torch._prims_common import is_contiguous_or_false, is_non_overlapping_and_dense_or_false, make_contiguous_strides_for

from rewrite.analysis.semantics import layout_maps
from rewrite.analysis.facts import functionalized, op_facts
from rewrite.analysis.facts.fake import fake_value, meta_key

_COND = torch.ops.higher_order.cond
_FORCE = inductor_prims.force_stride_order
_CLONE = torch.ops.aten.clone.default
_SYM_STRIDE = torch.ops.aten.sym_stride.int
_PROVENANCE = ("stack_trace", "nn_module_stack", "seq_nr", "from_node")
_AF_V2 = torch.ops.higher_order.auto_functionalized_v2


def _rooted_in_input(node: fx.Node) -> bool:
    """A graph input, a constant, or a value in one's memory (a view of it, an in-place op's
    result): its layout is the input's own."""
    return layout_maps.chain_to(node)[0].op in ("placeholder", "get_attr")


def _new_meta(node: fx.Node, like: fx.Node, key: str, val: torch.Tensor) -> None:
    """``node``'s metadata: ``val``, and ``like``'s provenance (not its bindings of unbacked
    symbols, which only the node that makes them may carry, nor what it was traced from)."""
    node.meta.update({k: like.meta[k] for k in _PROVENANCE if k in like.meta})
    node.meta[key] = val
    node.meta["tensor_meta"] = _extract_tensor_metadata(val)


def _strides(graph: fx.Graph, source: fx.Node, forced: torch.Tensor, key: str) -> list:
    """``forced``'s strides as arguments: ints, and a ``sym_stride`` of ``source`` for a symbolic
    one (Inductor lowers it to the fake value's expression; eager reads the tensor's own)."""
    out = []
    for dim, stride in enumerate(forced.stride()):
        if isinstance(stride, torch.SymInt):
            node = graph.call_function(_SYM_STRIDE, (source, dim))
            node.meta[key] = stride
            stride = node
        out.append(stride)
    return out


def _force(graph: fx.Graph, user: fx.Node, value: fx.Node, key: str, viewed: bool,
           private: bool = False) -> Optional[fx.Node]:
    """The node to give ``user`` (a ``cond``, or the node after ``value``) instead of ``value``,
    inserted before ``user``; None to leave it.  ``private``: ``user`` writes what it is given,
    and ``value`` is read after it or updates an input laid out otherwise, so a dense value is
    copied first (the force alone may be ``value``'s own buffer, or the input's)."""
    val = value.meta.get(key)
    if not isinstance(val, torch.Tensor) or value.target is _FORCE or _rooted_in_input(value):
        return None
    source, forced = value, val
    with graph.inserting_before(user):
        dense = is_non_overlapping_and_dense_or_false(val)     # (no guard: copied where it cannot tell)
        if not dense and viewed:
            return None
        if not dense or private:
            forced = val if dense else val.new_empty_strided(val.shape, make_contiguous_strides_for(val.shape))
            source = graph.call_function(_CLONE, (value,), {} if dense else {"memory_format": torch.contiguous_format})
            _new_meta(source, value, key, forced)
        node = graph.call_function(_FORCE, (source, _strides(graph, source, forced, key)))
    _new_meta(node, value, key, forced)
    return node


def _note(cond: fx.Node, value: fx.Node, node: fx.Node) -> str:
    copied = "its own strides, in a copy (read after the cond, or an update of an input laid out otherwise)"
    how = "its own strides" if node.args[0] is value else "dense strides (its own are not dense)" \
        if node.args[0].kwargs.get("memory_format") is not None else copied
    return f"{cond.name}: operand {value.name} is laid out with {how} before the cond; stock Inductor " \
           f"compiles the branches for an operand's strides without requiring them of it"


def _cond_values(node: fx.Node):
    """The tensor operands of a ``cond`` node, or of a ``cond`` under ``auto_functionalized_v2``
    (its bases, with whether an operand is regenerated from each by ``as_strided``, and the
    operands it only reads, passed as they are); None for any other node."""
    if node.op != "call_function":
        return None
    if node.target is _COND:
        operands = node.args[3] if len(node.args) > 3 else ()
        return [(a, False) for a in dict.fromkeys(a for a in operands if isinstance(a, fx.Node))]
    if node.target is _AF_V2 and node.args and node.args[0] is _COND:
        bases = node.kwargs.get("_all_bases") or []
        viewed = {node.kwargs[k] for k in node.kwargs if k.endswith("_base_index") and isinstance(node.kwargs[k], int)
                  and node.kwargs.get(k[:-len("base_index")] + "size") is not None}
        passed = [v for k, v in node.kwargs.items() if k.startswith("operand") and isinstance(v, fx.Node)]
        return [(b, i in viewed) for i, b in enumerate(bases) if isinstance(b, fx.Node)] \
            + [(v, False) for v in dict.fromkeys(passed)]
    return None


def require_operand_layouts(gm: fx.GraphModule) -> List[str]:
    """Both steps on ``gm``'s graph; one line per tensor laid out."""
    return _require_cond_operand_layouts(gm) + _require_written_memory_layouts(gm)


def _require_cond_operand_layouts(gm: fx.GraphModule) -> List[str]:
    """Give each computed tensor operand of each ``cond`` of ``gm``'s graph the layout its fake
    value names; returns one line per operand.  (Inductor runs the post-grad passes on each
    subgraph itself, so the ``cond``s inside a branch or a loop body get theirs there.)"""
    notes: List[str] = []
    graph = gm.graph
    key = meta_key(graph)
    for cond in list(graph.nodes):
        values = _cond_values(cond) or []
        viewed_anywhere = {v for v, viewed in values if viewed}   # (one node can be a base and an operand)
        written = set(cond.kwargs.get("_all_bases") or ()) if cond.target is _AF_V2 else set()
        shared = _sharing_memory([v for v, _ in values], written)
        for value in dict.fromkeys(v for v, _ in values):
            if value in viewed_anywhere and layout_maps.operand_reading_differs(cond, value):
                continue    # its views address an input's storage: the base is that input, updated in place
            if value in shared:
                continue    # a force is a copy where it runs eagerly: the operands would no longer share memory
            private = value in written and (_read_after(value, cond) or _input_laid_out_otherwise(value, key))
            node = _force(graph, cond, value, key, value in viewed_anywhere, private)
            if node is None:
                continue
            cond.args = fx.node.map_arg(cond.args, lambda a: node if a is value else a)
            cond.kwargs = fx.node.map_arg(cond.kwargs, lambda a: node if a is value else a)
            notes.append(_note(cond, value, node))
    return notes


def _sharing_memory(values: List[fx.Node], written: set) -> set:
    """The ``values`` of one call that share memory with one of its ``written`` bases (an operand
    that views a base, fuzz seed 199 p57: ``x0`` and ``x1`` views of one input, the branch writes
    ``x1[0]`` and reads ``x0``), with that base.  The branch reads the write only through that
    memory (stock Inductor's reinplacing writes it in place), and a force of either is a copy of
    its own on the eager base (``eager_force_stride``), where the branch then read the operand's
    old value."""
    roots: dict = {}
    for v in dict.fromkeys(values):
        roots.setdefault(op_facts.root_of(v), []).append(v)
    return {v for group in roots.values() if len(group) > 1 and any(g in written for g in group) for v in group}


def _input_laid_out_otherwise(value: fx.Node, key: str) -> bool:
    """``value`` updates a graph input laid out otherwise than ``value``'s fake value (an
    ``index_put`` into a strided input is dense): where Inductor's reinplacing writes it in place,
    the ``cond`` would get the input's layout, not the one its branches were compiled for (seed
    103 p827: stock crashed on the branch's stride check, aot_eager right)."""
    updates, memory = layout_maps.storage_chain(value)
    own, theirs = value.meta.get(key), memory.meta.get(key)
    return bool(updates) and memory.op == "placeholder" and isinstance(own, torch.Tensor) \
        and isinstance(theirs, torch.Tensor) and not layout_maps.same_layout_at_offset(own, theirs)


def _read_after(value: fx.Node, call: fx.Node) -> bool:
    """Something reads ``value``, or a view of it, after ``call`` (or returns it)."""
    return any(user is not call and (user.op == "output" or call < user)
               for n in op_facts.self_and_views(value) for user in n.users)


def _written_memory_roots(call: fx.Node) -> List[fx.Node]:
    """The nodes owning the memory a custom op's functionalized call writes (v1: its written
    arguments; v2: its bases), computed in the graph and dense from storage offset 0."""
    if not (functionalized.is_any_functionalized_call(call)):
        return []
    roots = []
    for m in functionalized.written_memory(call):
        root = layout_maps.chain_to(m)[0]
        val = fake_value(root)
        if (root.op == "call_function" and root.target is not _FORCE and isinstance(val, torch.Tensor)
                and layout_maps.fills_its_storage(val) and root not in roots):
            roots.append(root)
    return roots


def _require_written_memory_layouts(gm: fx.GraphModule) -> List[str]:
    """Lay out as its fake value says each computed tensor whose memory a functionalized call of
    a custom op writes (see the module docstring)."""
    graph, key, notes, done = gm.graph, meta_key(gm.graph), [], set()
    for call in list(graph.nodes):
        for root in _written_memory_roots(call):
            if root in done:
                continue
            done.add(root)
            val = root.meta.get(key)
            if not root.all_input_nodes and isinstance(val, torch.Tensor) and is_contiguous_or_false(val) \
                    and sum(1 for size in val.shape if size != 1) <= 1:
                # A tensor made from nothing (`zeros_like` is `full`) with one dimension of more
                # than one element: Inductor allocates it flat, as faked (no padding, no other
                # order).  Forced, `full((1, 1, 3))` faked with strides (1, 1, 1) and written by
                # a v2 call failed Inductor's scheduler (KeyError; fuzz seed 191 p436).
                continue
            node = _force(graph, root.next, root, key, viewed=True)      # right after it is made
            if node is None:
                continue
            made = {node, *(s for s in node.args[1] if isinstance(s, fx.Node))}
            root.replace_all_uses_with(node, delete_user_cb=lambda u: u not in made)
            notes.append(f"{call.name}: {root.name}, whose memory it writes, is laid out with its own strides; "
                         f"Inductor's decomposition of the call addresses that memory by as_strided")
    return notes
