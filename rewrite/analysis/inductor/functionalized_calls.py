"""What Inductor's reinplacing decides for functionalized calls (``auto_functionalized`` v1 and
v2, of a custom op or of a higher-order op), and the in-place meaning it gives them.

Inductor's pass does not rewrite these calls: it stores, in ``meta["only_clone_these_tensors"]``,
which written arguments (v1, by name) or bases (v2, by index) its later decomposition clones;
every other one the op writes in place.  Its check asks whether anything reads the tensor
after the call; it does not ask whether the call's result is then returned as a tensor of its
own while it is the input's memory (fuzz program 358: noop removal dropped the program's clone
of the result, and the output came back aliasing the input).

:func:`in_place_operands` reads the decision; :func:`model_in_place` rewrites a simulated copy
of the graph so that the legality check's model sees what the decomposed call does: right after
the call, the written memory holds the new value (``copy_(memory, new value)``), and whatever
read the new value reads that memory.  A read-only argument in the memory a call writes in place
is a hazard the model cannot show (the op reads it while writing), so it is reported instead.
"""
from __future__ import annotations

import operator
from typing import List, Optional, Tuple

import torch
import torch.fx as fx

from rewrite.analysis.facts import functionalized
from rewrite.analysis.facts.fake import fake_value
from rewrite.analysis.facts.mutation import nodes_in
from rewrite.analysis.semantics import layout_maps, overlap
from rewrite.analysis.semantics.regions import default_storage_key, region_of_node, region_of_tensor

AUTO_FUNCTIONALIZED = (torch.ops.higher_order.auto_functionalized, torch.ops.higher_order.auto_functionalized_v2)
_ONLY_CLONE = "only_clone_these_tensors"


def is_call(node) -> bool:
    """A functionalized call Inductor's reinplacing decides for (any wrapped op)."""
    return isinstance(node, fx.Node) and node.op == "call_function" and node.target in AUTO_FUNCTIONALIZED


def is_v2(node: fx.Node) -> bool:
    return node.target is torch.ops.higher_order.auto_functionalized_v2


def in_place_operands(node: fx.Node) -> Optional[List[object]]:
    """The written arguments (v1: names) or bases (v2: indices) Inductor's pass decided to
    write in place, in order; None where it has not decided (no meta) or the call is not
    understood."""
    if not is_call(node) or _ONLY_CLONE not in node.meta:
        return None
    cloned = set(node.meta[_ONLY_CLONE] or ())
    if is_v2(node):
        bases = node.kwargs.get("_all_bases") or ()
        return [i for i, b in enumerate(bases) if isinstance(b, fx.Node) and i not in cloned]
    if not functionalized.is_functionalized_call(node):
        return None
    names = functionalized.written_names(functionalized.wrapped_op(node))
    return [n for n in names if n not in cloned and node.kwargs.get(n) is not None]


def operand_memory(node: fx.Node, key) -> List[fx.Node]:
    """The tensors an in-place operand ``key`` (name or base index) is."""
    if is_v2(node):
        return nodes_in([node.kwargs["_all_bases"][key]])
    return nodes_in(node.kwargs.get(key))


def model_in_place(graph: fx.Graph, node: fx.Node, in_place: List[object]) -> Tuple[List[fx.Node], str]:
    """Rewrite ``graph`` (a simulated copy) around ``node`` to the in-place meaning of the
    operands ``in_place``: right after the call, each one's memory holds its new value, and
    every reader of the new value reads that memory.  Returns the writes it inserted and a
    hazard the model cannot show ("" when none)."""
    hazard = _reads_written_memory(node, in_place)
    writes: List[fx.Node] = []
    cursor = [node]

    def emit(target, args, like) -> fx.Node:
        with graph.inserting_after(cursor[0]):
            made = graph.call_function(target, args)
        if like is not None:
            made.meta["val"] = like
        cursor[0] = made
        return made

    def readers_read(producer: fx.Node, index: int, memory: fx.Node, fresh: fx.Node) -> None:
        for item in [u for u in producer.users if u is not fresh and _is_item(u, index)]:
            item.replace_all_uses_with(memory)
        for u in list(memory.users):        # the copy-back of the new value: now it copies nothing
            if u.op == "call_function" and u.target is torch.ops.aten.copy_.default and u.args[:2] == (memory, memory):
                u.replace_all_uses_with(memory)
                graph.erase_node(u)

    for key in in_place:
        index = _item_index(node, key)
        if index is None:
            return writes, f"{node.name}: which item holds the new value of {key!r} is not known"
        memory = node.kwargs["_all_bases"][key] if is_v2(node) else node.kwargs[key]
        like = _item_value(node, index)
        item = emit(operator.getitem, (node, index), like)
        if isinstance(memory, (list, tuple)):
            for j, m in enumerate(memory):
                if not isinstance(m, fx.Node):
                    continue
                element = emit(operator.getitem, (item, j), like[j] if isinstance(like, (list, tuple)) else None)
                writes.append(emit(torch.ops.aten.copy_.default, (m, element), fake_value(m)))
                for old in [u for u in node.users if u is not item and _is_item(u, index)]:
                    readers_read(old, j, m, element)
        elif isinstance(memory, fx.Node):
            writes.append(emit(torch.ops.aten.copy_.default, (memory, item), fake_value(memory)))
            readers_read(node, index, memory, item)
    return writes, hazard


def _item_value(node: fx.Node, index: int):
    """The example value of item ``index`` of ``node``: an existing item's, else the call's."""
    for u in node.users:
        if _is_item(u, index) and "val" in u.meta:
            return u.meta["val"]
    val = fake_value(node)
    return val[index] if isinstance(val, (list, tuple)) and index < len(val) else None


def _is_item(node: fx.Node, index) -> bool:
    return node.op == "call_function" and node.target is operator.getitem and node.args[1] == index


def _item_index(node: fx.Node, key) -> Optional[int]:
    if is_v2(node):
        val = fake_value(node)
        bases = node.kwargs.get("_all_bases") or ()
        if isinstance(val, (list, tuple)) and len(val) >= len(bases):
            return len(val) - len(bases) + key
        schema = functionalized.wrapped_schema(node)
        return None if schema is None else max(1, len(schema.returns)) + key
    op = functionalized.wrapped_op(node)
    names = functionalized.written_names(op)
    return functionalized.result_slots(op) + names.index(key) if key in names else None


def cloned_at_symbolic_offset(node: fx.Node, in_place) -> str:
    """Why a written argument of the v1 call ``node`` that Inductor would clone (not one of
    ``in_place``) sits at a symbolic storage offset, or "".  The decomposition clones it by
    ``clone_preserve_strides``, which addresses the clone by the argument's
    ``sym_storage_offset``, and Inductor's code put the clones of the later rows of a strided
    input at offset 0 (fuzz seed 3 p19: stock wrong, aot_eager right)."""
    for name, arg in functionalized.written_operands(node):
        val = fake_value(arg)
        if name in in_place or val is None:
            continue
        offset = val.storage_offset()
        if isinstance(offset, torch.SymInt) and offset.node.expr.free_symbols:
            return f"Inductor clones {arg.name} ({name}) at symbolic storage offset {offset}"
    return ""


def in_place_into_private_copies(node: fx.Node, in_place) -> bool:
    """Every tensor ``node`` would write in place is a buffer only it uses (``privatize``'s)."""
    from rewrite.analysis.facts.op_facts import is_private_copy

    tensors = [t for key in in_place for t in operand_memory(node, key)]
    return bool(tensors) and all(is_private_copy(t, node) for t in tensors)


def _reads_written_memory(node: fx.Node, in_place: List[object]) -> str:
    """A tensor the call only reads that overlaps what it writes in place: an argument it
    writes (v1), a view of a base it regenerates (v2; the whole base where the view is not
    known).  Elements are compared, not storages: an input split by AOTAutograd's synthetic base
    into views of one tensor reads and writes disjoint parts of it (fuzz program 4778).  Not
    asked of a higher-order op's call: its functions were traced from the program, which read
    and wrote that memory in its own order (the in-place run is the program's; fuzz program
    1830: a `cond` branch writes a view of its operand, then reads the operand)."""
    if not isinstance(node.args[0], torch._ops.OpOverload):
        return ""
    written = _written_regions(node, in_place)
    if not written:
        return ""
    written_names = set(functionalized.written_names(node.args[0]))
    for name, value in node.kwargs.items():
        if name == "_all_bases" or name in written_names:
            continue
        for n in nodes_in(value):
            s = _storage(n)
            hits = [(w, region) for key, w, region in written if key == s]
            if not hits:
                continue
            read = region_of_node(n)
            for w, region in hits:
                if read is None or region is None or overlap.may_overlap(read, region):
                    return (f"{node.name} reads {n.name} ({name}), which lives in the memory of {w}, "
                            f"which Inductor would have it write in place")
    return ""


def _written_regions(node: fx.Node, in_place: List[object]) -> List[Tuple[object, str, object]]:
    """``(storage, name, region)`` of what the call writes when ``in_place`` runs in place
    (region None: not known, the whole storage counts)."""
    out = []
    if not is_v2(node):
        for key in in_place:
            for n in operand_memory(node, key):
                if _storage(n) is not None:
                    out.append((_storage(n), n.name, region_of_node(n)))
        return out
    bases = node.kwargs.get("_all_bases") or ()
    bases_like = [fake_value(b) if isinstance(b, fx.Node) else None for b in bases]
    try:
        infos = functionalized.v2_view_infos(node)
    except Exception:  # noqa: BLE001 - metadata not understood: the whole bases count
        infos = []
    for key in in_place:
        base = bases[key]
        if _storage(base) is None:
            continue
        mine = [i for i in infos if getattr(i, "base_index", None) == key]
        regions_of_key = [_view_region(i, bases_like, _storage(base)) for i in mine] or [None]
        out.extend((_storage(base), base.name, r) for r in regions_of_key)
    return out


def _view_region(info, bases_like, storage):
    """The region of the view ``info`` regenerates, in the base's ``storage`` (None: unknown)."""
    try:
        like, _ = layout_maps.v2_view(info, bases_like)
    except Exception:  # noqa: BLE001
        return None
    return None if like is None else region_of_tensor(like, storage)


def _storage(n: fx.Node):
    val = fake_value(n)
    if not isinstance(val, torch.Tensor):
        return None
    try:
        return default_storage_key(val)
    except Exception:  # noqa: BLE001 - no storage (a sparse or opaque tensor)
        return None


def dropped_loop(graph: fx.Graph) -> str:
    """Why Inductor would drop a loop that writes memory ("" if it would not): a ``while_loop``
    under ``auto_functionalized_v2`` none of whose own results (the carried values, before the
    written bases among the call's results) is read.  Its scheduler keeps a loop only for its
    results, so the writes in its functions are lost (fuzz seed 37 p54: the condition writes one
    of two aliased inputs, which the dependency leaves to torch; stock Inductor compiles nothing
    at all, aot_eager right; with the loop's sum returned, stock is right)."""
    for node in graph.nodes:
        if not (functionalized.is_functionalized_hop_v2(node) and node.args[0] is torch.ops.higher_order.while_loop):
            continue
        bases = nodes_in(node.kwargs.get("_all_bases"))
        if not isinstance(node.meta.get("val"), (list, tuple)) or not bases:
            continue
        if not any(u.target is operator.getitem and u.users and layout_maps.v2_base_result(u) is None
                   for u in node.users):
            return (f"`{node.name}` (a while_loop that writes {', '.join(f'`{b.name}`' for b in bases)}) has no "
                    f"result anyone reads, and Inductor's scheduler would drop it with its writes")
    return ""
