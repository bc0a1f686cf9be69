"""Tensor constants of a ``while_loop``'s or ``cond``'s functions become operands of the op.

Stock Inductor (torch 2.13, CPU) lowers a tensor constant of a higher-order op's function that
it does not inline (more than 8 elements, or more than one dimension) under the function's name
(``while_loop_body_graph_0__tensor_constant0``) and never sets that name in the compiled module:
the program fails at run time with ``_torchinductor_pyobject_tensor_data_ptr: non-tensor
input``.  AOTAutograd makes such a constant of every ``torch.tensor([...])`` a loop body or a
branch builds, so plain programs fail under stock Inductor while aot_eager runs them, and so
does the rewrite of a loop whose condition writes a captured tensor (fuzz program 2063: the
condition, and its constant index, move into the body).  A constant of the enclosing graph,
passed to the op as one more captured operand, is lowered and set as usual: that is what the
program means, and it costs nothing (the same tensor, read where it was).

A ``cond`` or ``while_loop`` whose functions write an operand reaches the post-grad passes
wrapped in ``auto_functionalized_v2`` (fuzz seed 67 p137: a branch's ``scatter_add_`` into a
transposed input, which the dependency rule leaves to the compiler), whose operands are base
indices under a schema constant: no operand can be added.  There a constant becomes flat
one-dimensional pieces of at most 8 elements, which Inductor inlines (``can_inline_constant``),
concatenated and viewed in its shape; one of more than ``MAX_PIECES`` pieces stops the compile
(``wrapped_function_constants``)."""
from __future__ import annotations

from collections import Counter
from typing import List, Tuple

import torch
import torch.fx as fx

from rewrite.analysis.facts.fake import graph_fake_mode, meta_key
from rewrite.analysis.facts import functionalized, op_facts

# operand tuple position of each higher-order op whose functions all take it last
_OPERANDS = {torch.ops.higher_order.while_loop: 3, torch.ops.higher_order.cond: 3}


def _constants(sub: fx.GraphModule) -> List[Tuple[fx.Node, torch.Tensor]]:
    out = []
    for node in sub.graph.nodes:
        if node.op == "get_attr":
            value = getattr(sub, node.target, None)
            if isinstance(value, torch.Tensor) and not isinstance(value, torch.nn.Parameter):
                out.append((node, value))
    return out


def _unique_name(root: fx.GraphModule, stem: str) -> str:
    i = 0
    while hasattr(root, f"{stem}{i}"):
        i += 1
    return f"{stem}{i}"


def hoist_function_constants(root: fx.GraphModule) -> List[str]:
    """Pass each tensor constant of the functions of ``root``'s ``while_loop`` and ``cond`` calls
    to the call as one more operand (a constant of ``root``); returns one line per constant."""
    graph, notes = root.graph, []
    fake_mode = graph_fake_mode(graph)
    hops = [n for n in graph.nodes if n.op == "call_function" and n.target in _OPERANDS]
    calls = Counter(id(f) for hop in hops for f in op_facts.called_functions(root, hop))
    for hop in hops:
        position = _OPERANDS[hop.target]
        if len(hop.args) <= position or not isinstance(hop.args[position], (list, tuple)):
            continue
        functions = op_facts.called_functions(root, hop)
        if any(calls[id(f)] > 1 for f in functions):     # a function two calls share: left as it is
            continue
        found = [(sub, node, value) for sub in functions for node, value in _constants(sub)]
        if not found or fake_mode is None:
            continue
        operands = list(hop.args[position])
        for sub, node, value in found:
            name = _unique_name(root, "_rewrite_operand_constant")
            setattr(root, name, value)
            with graph.inserting_before(hop):
                outer = graph.create_node("get_attr", name)   # a plain tensor attribute, as AOTAutograd sets its constants
            with fake_mode:
                outer.meta[meta_key(graph)] = fake_mode.from_tensor(value, static_shapes=True)   # (a constant: no size symbols)
            operands.append(outer)
            for function in functions:
                last = [p for p in function.graph.nodes if p.op == "placeholder"][-1]
                with function.graph.inserting_after(last):
                    placeholder = function.graph.placeholder(f"{name}_arg")
                placeholder.meta[meta_key(function.graph)] = outer.meta[meta_key(graph)]
                if function is sub:
                    node.replace_all_uses_with(placeholder)
                    function.graph.erase_node(node)
            notes.append(f"{hop.name}: the constant {node.target} of its function is passed as an operand "
                         f"({name}); stock Inductor never sets a function's own constant")
        hop.args = hop.args[:position] + (tuple(operands),) + hop.args[position + 1:]
        for function in functions:
            function.recompile()
    return notes


#: Inductor inlines a one-dimensional constant of at most this many elements
#: (``GraphLowering.can_inline_constant``) and a zero-dimensional one
INLINED_ELEMENTS = 8


#: A larger constant of a wrapped function is made of this many inlined pieces at most (each
#: piece is one more constant in the compiled code); a still larger one stops the compile
MAX_PIECES = 32


def wrapped_function_constants(root: fx.GraphModule) -> List[str]:
    """Make each tensor constant of the functions of a ``while_loop`` or ``cond`` under
    ``auto_functionalized_v2`` one Inductor inlines: flat pieces of at most ``INLINED_ELEMENTS``
    elements, concatenated (where there are several) and viewed in the constant's shape.  Returns
    one line per constant; raises where a constant needs more than ``MAX_PIECES`` pieces
    (Inductor would name it in the compiled code and never set it: fuzz seed 197 p440, where the
    branch that reads it did not run, and stock matched eager only so)."""
    graph, notes = root.graph, []
    fake_mode = graph_fake_mode(graph)
    for call in [n for n in graph.nodes if functionalized.is_functionalized_hop_v2(n) and n.args[0] in _OPERANDS]:
        for function in op_facts.called_functions(root, call):
            for node, value in _constants(function):
                if value.dim() == 0 or value.dim() == 1 and value.numel() <= INLINED_ELEMENTS:
                    continue
                flat = value.detach().contiguous().reshape(-1).clone()
                pieces = list(flat.split(INLINED_ELEMENTS)) or [flat]
                if len(pieces) > MAX_PIECES or fake_mode is None:
                    raise RuntimeError(f"{call.name}: the constant {node.target} of a function of the "
                                       f"{call.args[0]} it wraps has {value.numel()} elements: stock Inductor "
                                       f"names it in the compiled code and never sets it, and under "
                                       f"auto_functionalized_v2 it cannot be passed as an operand")
                viewed = _inlined(function, node, value, [p.clone() for p in pieces], fake_mode)
                node.replace_all_uses_with(viewed)
                function.graph.erase_node(node)
                notes.append(f"{call.name}: the constant {node.target} of its {call.args[0]} is made of "
                             f"{len(pieces)} flat piece(s), which Inductor inlines; stock Inductor never sets a "
                             f"function's own constant")
            function.recompile()
    return notes


def _inlined(function: fx.GraphModule, node: fx.Node, value: torch.Tensor, pieces: List[torch.Tensor],
             fake_mode) -> fx.Node:
    """Nodes before ``node`` that make ``value`` from ``pieces`` (flat constants Inductor inlines);
    returns the last."""
    key = meta_key(function.graph)
    lifted = []
    with function.graph.inserting_before(node):          # (Inductor traces the call again, with
        for piece in pieces:                               # fake tensors: only a lift takes a real
            name = _unique_name(function, f"{node.target}_flat")     # constant there)
            setattr(function, name, piece)
            made = function.graph.create_node("get_attr", name)
            lift = function.graph.call_function(torch.ops.aten.lift_fresh_copy.default, (made,))
            with fake_mode:
                made.meta[key] = fake_mode.from_tensor(piece, static_shapes=True)
                lift.meta[key] = torch.empty_like(made.meta[key])
            lifted.append(lift)
        flat = lifted[0]
        if len(lifted) > 1:
            flat = function.graph.call_function(torch.ops.aten.cat.default, (lifted,))
            with fake_mode:
                flat.meta[key] = torch.cat([n.meta[key] for n in lifted])
        viewed = function.graph.call_function(torch.ops.aten.view.default, (flat, list(value.shape)))
        with fake_mode:
            viewed.meta[key] = flat.meta[key].view(value.shape)
    return viewed
