"""Make a post-grad graph runnable as ATen ops, for the ``eager`` base.

After our rules and Inductor's own reinplacing, the graph means what Inductor's lowering makes
of it.  Two spellings that Inductor compiles are not runnable op by op:

- ``_foreach_op_`` keeps the ``getitem`` users of its functional form; Inductor answers them
  with the written tensors, ATen's in-place op returns None.
- An in-place op whose other operand is (a view of) the memory it writes, e.g.
  ``index_put_(m, idx, m)`` after a materialization replaced both uses of one value: Inductor
  reads the operand as the functional op would (the legality check judged the decision on that
  meaning); ATen refuses such overlap for indexed ops ("some elements of the input tensor and the
  written-to tensor refer to a single memory location") and for partial overlap.

- ``as_strided`` (and ``as_strided_scatter``) address storage: their offset counts from the
  start of the storage their operand lives in.  Inductor allocates every computed buffer as its
  fake value says (dense, at offset 0); ATen may not: ``slice_scatter`` of a view at offset 1
  clones the view's whole storage and keeps offset 1, so the ``as_strided`` views that
  ``auto_functionalized``'s decomposition takes of it (``clone_preserve_strides``) read one element
  early (fuzz program 4415).  A computed tensor an ``as_strided`` reads through gets the layout of
  its fake value first (a copy at run time only where ATen laid it out otherwise).

None of these rewrites changes a value: the getitems read the written tensors, an operand that
shares memory with the write is read into a copy just before the op, which is the functional op's
meaning, and a copy laid out as the fake value says holds what the tensor holds.
"""
from __future__ import annotations

import operator
import torch
import torch.fx as fx
from torch.fx.experimental.symbolic_shapes import statically_known_true

from rewrite.analysis.semantics import layout_maps
from rewrite.analysis.facts import op_facts


def runnable_as_aten(gm: fx.GraphModule) -> None:
    """Both adaptations, in ``gm`` and in the subgraphs of its higher-order ops; recompiled."""
    for module in list(gm.modules()):
        if isinstance(module, fx.GraphModule):
            results_of_inplace_foreach(module.graph)
            copy_operands_sharing_written_memory(module.graph)
            storage_addressed_as_faked(module.graph)
            module.recompile()


def results_of_inplace_foreach(graph: fx.Graph) -> None:
    """Rewire the ``getitem`` users of an in-place foreach op to the tensors it writes."""
    for node in list(graph.nodes):
        if node.op != "call_function" or not op_facts.is_inplace_foreach(node.target):
            continue
        written = node.args[0] if node.args and isinstance(node.args[0], (list, tuple)) else None
        for user in list(node.users):
            if user.target is operator.getitem and written is not None and isinstance(user.args[1], int):
                user.replace_all_uses_with(written[user.args[1]])
                graph.erase_node(user)


def copy_operands_sharing_written_memory(graph: fx.Graph) -> None:
    """Read each operand of an in-place op that lives in the memory the op writes (same storage
    root through views and in-place results) into a copy just before the op."""
    for node in list(graph.nodes):
        if node.op != "call_function" or op_facts.is_foreach(node.target) or not _is_aten_value_op(node.target):
            continue
        written = op_facts.written_nodes(node)
        if not written:
            continue
        roots = {_storage_root(w) for w in written}

        def copied(value):
            if isinstance(value, (list, tuple)):
                return type(value)(copied(v) for v in value)
            if not isinstance(value, fx.Node) or _storage_root(value) not in roots:
                return value
            with graph.inserting_before(node):
                copy = graph.call_function(torch.ops.aten.clone.default, (value,))
            copy.meta.update({k: v for k, v in value.meta.items() if k in ("val", "tensor_meta")})
            return copy

        args, kwargs = op_facts.map_read_arguments(node, copied)
        if args != node.args or kwargs != node.kwargs:
            node.args, node.kwargs = args, kwargs


def storage_addressed_as_faked(graph: fx.Graph) -> None:
    """Give each computed tensor that an ``as_strided`` op addresses (through views) the layout of
    its fake value, where that is dense at offset 0: every use of it reads ``laid_out_as_fake``."""
    roots = {}
    for node in graph.nodes:
        if layout_maps.addresses_storage(node) and node.args and isinstance(node.args[0], fx.Node):
            root = layout_maps.chain_to(node.args[0])[0]
            order = _dense_stride_order(root)
            if order is not None:
                roots[root] = order
    for root, order in roots.items():
        with graph.inserting_after(root):
            laid_out = graph.call_function(laid_out_as_fake, (root, order))
        laid_out.meta.update({k: v for k, v in root.meta.items() if k in ("val", "tensor_meta")})
        root.replace_all_uses_with(laid_out, delete_user_cb=lambda user: user is not laid_out)


def _dense_stride_order(node: fx.Node):
    """The dimensions of ``node``'s fake value from the innermost out, where ``node`` is an ATen
    op's fresh result that is dense and starts its storage; else None (an input, a custom op's
    result, a layout ATen has no reason to differ from Inductor on)."""
    if node.op != "call_function" or not op_facts.is_op_overload(node.target) or node.target.namespace not in ("aten", "prims"):
        return None
    val = node.meta.get("val")
    if not isinstance(val, torch.Tensor) or not layout_maps.fills_its_storage(val):
        return None
    strides = val.stride()
    order = list(range(val.dim()))
    for i in range(1, len(order)):          # insertion sort on what is statically known, no guard
        j = i
        while j > 0 and _known_less(strides[order[j]], strides[order[j - 1]]):
            order[j - 1], order[j] = order[j], order[j - 1]
            j -= 1
    if any(not _known_less(strides[a], strides[b]) and not statically_known_true(strides[a] == strides[b])
           for a, b in zip(order, order[1:])):
        return None                          # symbolic strides whose order is not known
    return tuple(order)


def _known_less(a, b) -> bool:
    return statically_known_true(a < b)


def laid_out_as_fake(x: torch.Tensor, order) -> torch.Tensor:
    """``x`` if it is dense at offset 0 with its dimensions in ``order`` (innermost first), else a
    copy laid out so."""
    strides, step = [0] * x.dim(), 1
    for d in order:
        strides[d] = step
        step *= x.shape[d]
    if x.storage_offset() == 0 and all(x.shape[d] <= 1 or x.stride(d) == strides[d] for d in range(x.dim())):
        return x
    out = torch.empty_strided(x.shape, strides, dtype=x.dtype, device=x.device)
    out.copy_(x)
    return out


def _is_aten_value_op(target) -> bool:
    """ATen and prims ops, whose in-place forms compute what their functional forms do; not
    ``set_`` (it rebinds storage) nor a user's custom op (its meaning is its own)."""
    return (op_facts.is_op_overload(target) and target.namespace in ("aten", "prims")
            and target.overloadpacket not in (torch.ops.aten.set_,))


def _storage_root(node: fx.Node):
    """What identifies the memory ``node``'s value lives in: its owner's fake storage
    (``layout_maps.owner_storage``), which also sees ops that share memory without saying so
    (``_unsafe_view``); else the owning node."""
    return layout_maps.owner_storage(node) or layout_maps.chain_to(node)[0]
