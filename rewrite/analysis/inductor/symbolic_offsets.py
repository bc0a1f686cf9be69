"""Storage offsets named by an expression over the graph's size symbols, not by ``sym_storage_offset``.

Under dynamic shapes, functionalization names where a view of an input sits by
``sym_storage_offset(view)`` (the arguments of ``auto_functionalized_v2`` that regenerate a
written view by ``as_strided``).  Stock Inductor (torch 2.13) computes that value wrong for a view
of a graph input: the regenerated view lands elsewhere in the input and the call writes the wrong
elements (fuzz programs 2753 and 3267: stock wrong, aot_eager right; seed 11 p53 and p609 are the
same family).  The offset's value is known as an expression over the graph's size symbols
(the fake value's ``SymInt``), which holds under the guards the graph was compiled with; built
from the nodes that carry those symbols with ``operator.add`` and ``operator.mul``, it is lowered
right.  An offset whose expression uses anything else is left as it is."""
from __future__ import annotations

import operator
from typing import Dict, List, Optional

import sympy
import torch
import torch.fx as fx

from rewrite.analysis.facts import functionalized, op_facts
from rewrite.analysis.facts.fake import fake_value, meta_key
from rewrite.analysis.semantics import layout_maps

_SYM_STORAGE_OFFSET = torch.ops.aten.sym_storage_offset.default
_OPS = {sympy.Add: operator.add, sympy.Mul: operator.mul}
MAX_TERMS = 64


def _build(graph: fx.Graph, expr, sources, before: fx.Node, key: str, budget: List[int]):
    """``expr`` as nodes inserted before ``before`` (an int where it is constant); None where a
    part of it is not a sum or product of integers and known symbols."""
    budget[0] -= 1
    if budget[0] < 0:
        return None
    if isinstance(expr, sympy.Integer):
        return int(expr)
    if isinstance(expr, sympy.Symbol):
        return sources.get(expr)
    op = _OPS.get(type(expr))
    if op is None:
        return None
    parts = [_build(graph, a, sources, before, key, budget) for a in expr.args]
    if any(p is None for p in parts):
        return None
    out = parts[0]
    for part in parts[1:]:
        with graph.inserting_before(before):
            node = graph.call_function(op, (out, part))
        left = out.meta.get(key) if isinstance(out, fx.Node) else out
        right = part.meta.get(key) if isinstance(part, fx.Node) else part
        if left is not None and right is not None:
            node.meta[key] = op(left, right)
        out = node
    return out


def _offset_of_a_view_of_an_input(offset: fx.Node, val: torch.SymInt):
    """The expression of the offset of a view of a graph input (or of the new value of a v2 call's
    base that is an input), in that memory's storage: the case stock Inductor gets wrong; None
    for a view of anything else, or one whose fake value lives elsewhere.  (A rule may have moved
    the view onto a private copy of the input; its fake value then still names the input's
    layout, and the offset in the copy is another: fuzz p2407 on the eager base.)"""
    view = offset.args[0] if offset.args else None
    if not isinstance(view, fx.Node):
        return None
    root = layout_maps.chain_to(view)[0]
    if root.op != "placeholder" and not _new_value_of_an_input_base(root) and not _laid_out_as_faked(root) \
            and not _forced_as_faked(root):
        return None
    if op_facts.shares_storage(fake_value(view), fake_value(root)) is not True:
        return None
    return val.node.expr


def _laid_out_as_faked(node: fx.Node) -> bool:
    """``node`` is a computed value whose layout ``operand_layouts.require_operand_layouts`` fixed
    (``inductor_force_stride_order``) at storage offset 0: Inductor allocates it as its fake value
    says, so offsets in it are the fake value's (fuzz seed 79 p76: a v2 call's written view of a
    `slice_scatter`, passed to the op at offset 0 where it sat at `2*s58 + 1`)."""
    val = fake_value(node)
    return (node.op == "call_function" and node.target is torch.ops.prims.inductor_force_stride_order.default
            and isinstance(val, torch.Tensor) and isinstance(val.storage_offset(), int) and val.storage_offset() == 0)


def _forced_as_faked(node: fx.Node) -> bool:
    """``node`` is a computed value that ``operand_layouts`` forced, unchanged, to its fake
    strides at storage offset 0 for a ``cond`` (the force of a buffer already so laid out is that
    buffer): offsets in it are the fake value's (fuzz seed 197 p740: ``x0.add_(x0.flip(0))``,
    then a ``cond`` branch writes ``x0.select(2, 1)[:, 1]``, a view of the ``add`` at
    ``s58 + 1`` that stock Inductor passed at offset 0)."""
    val = fake_value(node)
    if not (isinstance(val, torch.Tensor) and isinstance(val.storage_offset(), int) and val.storage_offset() == 0
            and layout_maps.fills_its_storage(val)):
        return False
    return any(_laid_out_as_faked(user) and user.args[0] is node
               and layout_maps.same_layout_at_offset(fake_value(user), val) for user in node.users)


def _new_value_of_an_input_base(node: fx.Node) -> bool:
    """``node`` is the new value of a base of an ``auto_functionalized_v2`` call, the base a graph
    input laid out as ``node``'s fake value: Inductor's decomposition makes it that input (the
    call written in place) or a copy of it that keeps its strides and offset, so offsets in it
    are offsets in the input (fuzz p2407: the second call's view of the first call's result)."""
    if not op_facts.is_getitem(node) or not functionalized.is_functionalized_v2(node.args[0]):
        return False
    call = node.args[0]
    role = functionalized.output_role(functionalized.wrapped_op(call), node.args[1], v2=True)
    bases = call.kwargs.get("_all_bases") or ()
    if role is None or role[0] != "base" or not 0 <= role[1] < len(bases):
        return False
    base = bases[role[1]]
    if not isinstance(base, fx.Node) or base.op != "placeholder":
        return False
    new, old = fake_value(node), fake_value(base)
    return (isinstance(new, torch.Tensor) and isinstance(old, torch.Tensor)
            and layout_maps.map_of_tensor(new) == layout_maps.map_of_tensor(old))


def name_offsets_by_sizes(gm: fx.GraphModule) -> List[str]:
    """Replace each ``sym_storage_offset`` of ``gm`` whose value is a sum of products of size
    symbols by that expression; returns one line per offset replaced."""
    graph, notes = gm.graph, []
    key = meta_key(graph)
    sources: Dict[sympy.Symbol, fx.Node] = {}     # the first node whose value is each size symbol
    for node in list(graph.nodes):
        val = node.meta.get(key)
        offset = node.op == "call_function" and node.target is _SYM_STORAGE_OFFSET
        if not offset and isinstance(val, torch.SymInt) and isinstance(val.node.expr, sympy.Symbol):
            sources.setdefault(val.node.expr, node)     # (an offset is no source: it is replaced)
        if not offset or not node.users or not isinstance(val, torch.SymInt) or not val.node.expr.free_symbols:
            continue
        expr = _offset_of_a_view_of_an_input(node, val)
        if expr is None:
            continue
        new: Optional[object] = _build(graph, expr, sources, min(node.users), key, [MAX_TERMS])
        if new is None:
            continue
        for user in list(node.users):
            user.args = fx.node.map_arg(user.args, lambda a: new if a is node else a)
            user.kwargs = fx.node.map_arg(user.kwargs, lambda a: new if a is node else a)
        view = node.args[0].name if node.args and isinstance(node.args[0], fx.Node) else "?"
        notes.append(f"{node.name}: the storage offset of {view} is named by {expr} over the size "
                     f"symbols; stock Inductor computes sym_storage_offset of a view of an input wrong")
        graph.erase_node(node)
    return notes
