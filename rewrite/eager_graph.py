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

Neither rewrite changes a value: the getitems read the written tensors, and an operand that shares
memory with the write is read into a copy just before the op, which is the functional op's meaning.
"""
from __future__ import annotations

import operator
import torch
import torch.fx as fx

from rewrite.analysis.semantics import layout_maps
from rewrite.analysis.facts import op_facts


def runnable_as_aten(gm: fx.GraphModule) -> None:
    """Both adaptations, in ``gm`` and in the subgraphs of its higher-order ops; recompiled."""
    for module in list(gm.modules()):
        if isinstance(module, fx.GraphModule):
            results_of_inplace_foreach(module.graph)
            copy_operands_sharing_written_memory(module.graph)
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
