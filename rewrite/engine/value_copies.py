"""Rewrites that only copy values: the one kind a graph the legality check cannot read may get.

Where a post-grad graph's functional reading is not what the program does (an
``as_strided_scatter`` over an input at a storage offset: ``layout_maps.functional_reading_differs``),
no rewrite of it can be checked, and the graph goes to Inductor as it is.  Inductor's own passes
may still break it: its reinplacing writes the scatter in place (what the program does), and the
copy-back into the input that follows then reads the input at other positions inside its own
loop (fuzz program 1666: ``x.add_(x.flip(0))``).  Computing a value into a buffer of its own
first changes no value in any reading of the graph, provided the value is a tensor no node
writes and it reads no input that shares memory with another input the graph writes (a
higher-order op's function given ``x`` and ``x.t()``: the copy would read ``x`` before the write
through ``x.t()`` that the program's value sees; fuzz seed 157 p117): a rule whose every action
is :data:`VALUE_KEEPING_ACTIONS` may run on such a graph, and :func:`only_copies_values` checks
what it did, structurally, in place of the legality check."""
from __future__ import annotations

from typing import Dict, Sequence, Tuple

import torch.fx as fx

from rewrite.analysis.facts import op_facts
from rewrite.analysis.facts.op_facts import MATERIALIZED_COPY
from rewrite.analysis.semantics import aliases, layout_maps

#: Built-in actions that only insert ``rewrite::materialized_copy`` of a value and make some of
#: its readers read the copy.
VALUE_KEEPING_ACTIONS = frozenset({"materialize"})


def only_copies_values(created: Sequence[fx.Node], erased: Sequence[fx.Node],
                       old_args: Dict[fx.Node, Tuple[tuple, dict]]) -> str:
    """Why the change is more than copies of unwritten values read in their place ("" if not)."""
    erased = [n for n in erased if n not in created]
    if erased:
        return f"it erases {erased[0].name}"
    copies = {}
    shared = {}
    for group in aliases.shared_input_groups(created[0].graph) if created else ():
        shared.update({node: next(m for m in group if m is not node) for node in group})
    for n in created:
        if n.target is not MATERIALIZED_COPY or not n.args or not isinstance(n.args[0], fx.Node):
            return f"it creates {n.name}, which is not a copy of a value"
        value = n.args[0]
        why = _written_or_aliased(value) or _reads_shared_input(value, shared)
        if why:
            return f"it copies {value.name}, {why}"
        copies[n] = value
    for node, (args, kwargs) in old_args.items():
        undone = fx.map_arg((tuple(node.args), dict(node.kwargs)), lambda a: copies.get(a, a))
        if undone != (tuple(args), dict(kwargs)):
            return f"it rewires {node.name} other than to read a copy of what it read"
    return ""


def _written_or_aliased(value: fx.Node) -> str:
    """Why ``value`` may not hold the same elements wherever it is read ("" if it does): it is
    an input, a view, or memory some node writes (itself or through a view of it)."""
    if value.op != "call_function":
        return f"a {value.op}"
    if op_facts.alias_source(value) is not None:
        return "a view"
    if op_facts.written_nodes(value):
        return "which writes memory"
    writer = layout_maps.writer_of(value)
    return f"which {writer.name} writes" if writer is not None else ""


def _reads_shared_input(value: fx.Node, shared: Dict[fx.Node, fx.Node]) -> str:
    """Why copying ``value`` early may read memory a write through another input changes first
    ("" if not): it reads, directly or through what it is computed from, an input of ``shared``
    (input -> an input sharing its memory)."""
    if not shared:
        return ""
    seen, stack = set(), [value]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        if node in shared:
            return (f"which reads input `{node.name}`, sharing memory with input `{shared[node].name}` "
                    f"where the graph writes one of them")
        stack.extend(node.all_input_nodes)
    return ""
