"""Operands a higher-order op's functionalized functions read stale.

A ``cond`` whose branch writes a captured tensor reaches AOTAutograd's graph as
``auto_functionalized_v2(cond, ..., _all_bases=[...])``, its branches functionalized as if their
inputs shared no memory: each written operand is updated functionally and copied back in an
epilogue (``copy_(arg, new)`` at the end of the branch).  Where two operands do share memory (an
operand that is a written base, or a view of one), a read of one after the branch wrote the other
reads it as it was before the write: the program read the new value.  No rewrite after
functionalization gives the branch back the order of its reads and writes, so a graph with such a
call stops and runs eagerly (``cond_captured_mutations``, the Dynamo-stage rewrite, declined it).

The joint pass records the hazard before Inductor's passes run (:func:`record`): a copy of a base
that noop removal merged into it later (fuzz p1704) is no aliasing of the program's.  An operand
that is one of the call's bases (p55) counts wherever it is read after the base's update.  An
operand that only views a base (two aliased inputs, seed 199 p57) is left to the reinplacing that
writes the branch in place (``operand_layouts`` does not force such operands apart): counting it
against a whole new value (``x1.add_(1.0)`` then a read of ``x0``, wrong under stock Inductor and
aot_eager too) stopped programs the eager pipeline runs right (the seeded run's seed 0 p257).  A read
counts where it comes after the first node computing the other operand's update, in the order
AOTAutograd traced the branch, and its value reaches a write or a result of the call that the
graph reads (p1830's branch returns ``p.clone()`` after its write, and nothing reads it), and
for an operand that is the written view's base, where the elements it reads can meet those the
update writes: both are replayed on the base's fake value and their regions proven apart by
``overlap.may_overlap`` (exact on static shapes, sympy on symbolic ones; seed 199 p71 reads
``x0[1:3]`` after writing ``x0[3:4]``).  Only views whose elements do not depend on the layout
are replayed (``_REPLAYABLE``: not ``as_strided``, ``view.dtype``...).  A ``while_loop`` (a body
reads in one iteration what it wrote in the one before) and any call whose functions cannot be
matched to its operands count every operand that is a base.

Two written operands of one base are not looked at: whether a whole new value copied back in the
epilogue undoes the other's write depends on which of the two Inductor's reinplacing writes in
place, and where (seed 199 p770 is wrong on both bases; seed 0 p257 of the same shape is right).
"""
from __future__ import annotations

from typing import Dict, List, Optional, Set

import torch
import torch.fx as fx

from rewrite.analysis.facts import functionalized, op_facts
from rewrite.analysis.facts.mutation import nodes_in
from rewrite.analysis.facts.fake import graph_fake_mode
from rewrite.analysis.facts.op_facts import op_display_name
from rewrite.analysis.semantics import overlap, regions

#: ``node.meta`` key of a higher-order op's v2 call: the names of the operands its functions read
#: after writing memory they share, recorded on the graph AOTAutograd made.
STALE_READS = "rewrite_stale_reads"


def record(graph: fx.Graph) -> None:
    """Record ``STALE_READS`` on every higher-order op's v2 call of ``graph``."""
    for node in graph.nodes:
        if functionalized.is_functionalized_hop_v2(node):
            node.meta[STALE_READS] = frozenset(stale_operands(node))


def stopping_call(graph: fx.Graph) -> str:
    """Why a higher-order op's v2 call of ``graph`` would not read what the program did ("" if
    none), from what :func:`record` found."""
    for call in graph.nodes:
        names = call.meta.get(STALE_READS) if functionalized.is_functionalized_hop_v2(call) else None
        if names:
            name = sorted(names)[0]
            return (f"`{call.name}` ({op_display_name(call.args[0])}): its functions read or copy back operand "
                    f"`{name}` without a write to memory it shares that came before: functionalized, they see it "
                    f"as it was before the write")
    return ""


def stale_operands(call: fx.Node) -> Set[str]:
    """Names of ``call``'s read operands that one of its functions reads after writing memory they
    share (see the module docstring).  Where the call's view metadata cannot be read, or its
    functions cannot be matched to its operands, every operand that is a base counts."""
    bases = set(nodes_in(call.kwargs.get("_all_bases")))
    reads = functionalized.read_only_arguments(call)
    base_reads = {name for name, value in reads if any(n in bases for n in nodes_in(value))}
    try:
        roots = _operand_roots(call)
        written = set(functionalized.v2_views(call))
    except Exception:  # noqa: BLE001 - metadata torch cannot read: count every such operand
        return base_reads
    functions = op_facts.called_functions(call.graph.owning_module, call)
    if call.args[0] is not torch.ops.higher_order.cond or not functions:
        return base_reads
    out: Set[str] = set()
    for fn in functions:
        placeholders = [n for n in fn.graph.nodes if n.op == "placeholder"]
        names = _operand_names(call, len(placeholders))
        if names is None:
            return base_reads
        by_name = dict(zip(names, placeholders))
        for name in base_reads:
            if _read_after_write(call, fn.graph, by_name, name, roots, written):
                out.add(name)
    return out


def _operand_roots(call: fx.Node) -> Dict[str, fx.Node]:
    """Operand name -> the node whose memory it lives in: a read operand's own root, a written
    one's base's."""
    bases = nodes_in(call.kwargs.get("_all_bases"))
    out: Dict[str, fx.Node] = {}
    for name, value in functionalized.read_only_arguments(call):
        items = nodes_in(value)
        if len(items) == 1 and isinstance(items[0].meta.get("val"), torch.Tensor):
            out[name] = op_facts.root_of(items[0])
    for name, info in functionalized.v2_views(call).items():
        infos = info if isinstance(info, (list, tuple)) else [info]
        indices = {i.base_index for i in infos if i is not None}
        if len(indices) == 1 and next(iter(indices)) < len(bases):
            out[name] = op_facts.root_of(bases[next(iter(indices))])
    return out


def _operand_names(call: fx.Node, count: int) -> Optional[List[str]]:
    """The names of the ``count`` operands a function of a ``cond`` call takes as its inputs, in
    order (``cond(pred, true_fn, false_fn, operand0, ...)``); None where the schema disagrees."""
    schema = functionalized.wrapped_schema(call)
    names = [a.name for a in schema.arguments][3:] if schema is not None else []
    return names if names and len(names) == count else None


def _read_after_write(call: fx.Node, graph: fx.Graph, by_name: Dict[str, fx.Node], name: str,
                      roots: Dict[str, fx.Node], written: Set[str]) -> bool:
    """Whether ``graph`` (a function of ``call``) reads operand ``name`` after its first update
    of another written operand sharing its memory, and that read reaches a write or a result
    the graph of ``call`` reads."""
    order = {n: i for i, n in enumerate(graph.nodes)}
    epilogue = {n.args[0]: n for n in graph.nodes
                if n.op == "call_function" and n.target is torch.ops.aten.copy_.default and n.args[0] in order
                and n.args[0].op == "placeholder"}
    placeholder = by_name.get(name)
    if placeholder is None or roots.get(name) is None:
        return True
    views = set(op_facts.self_and_views(placeholder))
    copies = set(epilogue.values())
    for other in written:
        target = by_name.get(other)
        if other == name or target is None or roots.get(other) is not roots[name] or target not in epilogue:
            continue
        first = _first_update(epilogue[target], set(op_facts.self_and_views(target)), order)
        late = [n for n in graph.nodes if _after(n, first, order) and n not in views
                and n.op in ("call_function", "output")
                and any(a in views for a in (n.args[1:] if n in copies else n.all_input_nodes))]
        late = [n for n in late if _reaches_use(call, graph, n, epilogue)]
        if late and not _regions_disjoint(call, graph, (name, placeholder, views, late), (other, epilogue[target])):
            return True
    return False


def _regions_disjoint(call: fx.Node, graph: fx.Graph, read, write) -> bool:
    """Whether the elements the ``late`` nodes read of operand ``name`` (a base of ``call``) are
    proven apart from those the update ``copy_back`` writes into operand ``other`` (a view of that
    base): the views replayed on the base's fake value, their regions compared by
    ``overlap.may_overlap`` (exact on concrete shapes, sympy on the shape environment's symbols;
    ``x0[1:3]`` read after ``x0[3:4]``'s ``select_scatter``, fuzz seed 199 p71).  False where it
    cannot tell (views it cannot replay, another base, no fake value)."""
    name, placeholder, views, late = read
    other, copy_back = write
    try:
        return _apart(call, graph, name, placeholder, views, late, other, copy_back)
    except Exception:  # noqa: BLE001 - any view it cannot replay: it cannot tell
        return False


def _apart(call: fx.Node, graph: fx.Graph, name: str, placeholder: fx.Node, views: Set[fx.Node], late: List[fx.Node],
           other: str, copy_back: fx.Node) -> bool:
    """:func:`_regions_disjoint`, raising where a view cannot be replayed."""
    info = functionalized.v2_views(call).get(other)
    bases = nodes_in(call.kwargs.get("_all_bases"))
    if isinstance(info, (list, tuple)) or info is None or call.kwargs.get(name) is not bases[info.base_index]:
        return False
    fake = _fake_base(call, info.base_index)
    if fake is None:
        return False
    base, mode = fake
    with mode:
        env = {placeholder: base,
               copy_back.args[0]: _resolved(info).regenerate_view(_listed(call, info.base_index, base))}
        _replay_views(graph, env)
        read_args = [a for n in late for a in (n.args[1:] if n is copy_back else n.all_input_nodes) if a in views]
        if any(a not in env for a in read_args):
            return False
        written = _written_tensors(copy_back, env)
    reads = [regions.region_of_tensor(env[a], regions.default_storage_key(env[a])) for a in read_args]
    writes = [regions.region_of_tensor(t, regions.default_storage_key(t)) for t in written]
    return not any(overlap.may_overlap(r, w) for r in reads for w in writes)


def _resolved(info):
    """A copy of ``ViewInfo`` ``info`` whose symbolic fields (nodes of the graph) are their values."""
    import copy

    out = copy.copy(info)
    for key, value in vars(info).items():
        setattr(out, key, fx.node.map_arg(value, lambda n: n.meta["val"]))
    return out


def _fake_base(call: fx.Node, index: int):
    """``(fake value, fake mode)`` of the call's base ``index``; None without them."""
    bases = nodes_in(call.kwargs.get("_all_bases"))
    val = bases[index].meta.get("val") if index < len(bases) else None
    mode = graph_fake_mode(call.graph)
    return (val, mode) if isinstance(val, torch.Tensor) and mode is not None else None


def _listed(call: fx.Node, index: int, base):
    return [base if i == index else None for i in range(len(nodes_in(call.kwargs.get("_all_bases"))))]


def _written_tensors(copy_back: fx.Node, env: Dict[fx.Node, torch.Tensor]) -> List[torch.Tensor]:
    """What ``copy_back``'s new value changes, as views of the operand: the regions of a chain of
    view scatters into it, or all of it."""
    dest, value, out = copy_back.args[0], copy_back.args[1], []
    whole = env[dest]
    while isinstance(value, fx.Node) and op_facts.is_view_scatter(value):
        view = op_facts.view_op_for_scatter(value.target)
        if view not in _REPLAYABLE:
            break
        out.append(view(whole, *fx.node.map_arg(value.args[2:], lambda a: _value(a, env)),
                        **fx.node.map_arg(value.kwargs, lambda a: _value(a, env))))
        if value.args[0] is dest:
            return out
        value = value.args[0]
    return [whole]


def _value(node: fx.Node, env: Dict[fx.Node, torch.Tensor]):
    """``env``'s tensor for ``node``, or a symbolic int's value (a size the branch takes)."""
    if node in env:
        return env[node]
    val = node.meta.get("val")
    if isinstance(val, (int, torch.SymInt)):
        return val
    raise KeyError(node.name)


#: Views whose elements follow from the elements of their input alone, whatever its layout: replayed
#: on the base's fake value, they name the elements the program's view does.  Any other view
#: (``as_strided`` and ``_reshape_alias`` take strides, ``view.dtype`` reinterprets bytes,
#: ``_neg_view`` negates) is never replayed: a read through it is never proven apart.
_aten = torch.ops.aten
_REPLAYABLE = frozenset({
    _aten.slice.Tensor, _aten.select.int, _aten.narrow.default, _aten.view.default, _aten._unsafe_view.default,
    _aten.squeeze.default, _aten.squeeze.dim, _aten.squeeze.dims, _aten.unsqueeze.default, _aten.permute.default,
    _aten.transpose.int, _aten.t.default, _aten.expand.default, _aten.alias.default, _aten.diagonal.default,
    _aten.unfold.default, _aten.detach.default,
})

def _replay_views(graph: fx.Graph, env: Dict[fx.Node, torch.Tensor]) -> None:
    """Run ``graph``'s view ops on the tensors of ``env`` (in place of its placeholders)."""
    for node in graph.nodes:
        if node in env or node.op != "call_function" or node.target not in _REPLAYABLE:
            continue
        try:
            env[node] = node.target(*fx.node.map_arg(node.args, lambda a: _value(a, env)),
                                    **fx.node.map_arg(node.kwargs, lambda a: _value(a, env)))
        except KeyError:
            continue


def _after(node: fx.Node, first: int, order: Dict[fx.Node, int]) -> bool:
    """``node`` runs after the update at ``first``, or is that update and a higher-order op (a
    loop whose body writes the base reads, from its second iteration on, what it wrote)."""
    return order[node] > first or (order[node] == first and isinstance(node.target, torch._ops.HigherOrderOperator))


def _first_update(copy_back: fx.Node, target_views: Set[fx.Node], order: Dict[fx.Node, int]) -> int:
    """Position of the first node computing the new value ``copy_back`` writes that reads the
    written operand (or a view of it) and is no view itself."""
    stack, seen, first = [copy_back.args[1]], set(), order[copy_back]
    while stack:
        n = stack.pop()
        if not isinstance(n, fx.Node) or n in seen or n.op != "call_function":
            continue
        seen.add(n)
        if not op_facts.is_view_node(n) and any(a in target_views for a in n.all_input_nodes):
            first = min(first, order[n])
        stack.extend(n.all_input_nodes)
    return first


def _reaches_use(call: fx.Node, graph: fx.Graph, start: fx.Node, epilogue: Dict[fx.Node, fx.Node]) -> bool:
    """Whether ``start``'s value reaches an epilogue write or a result of the function that the
    graph of ``call`` reads."""
    copies = set(epilogue.values())
    stack, seen = [start], set()
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        if n in copies:
            return True
        if n.op == "output":
            return _results_read(call)
        stack.extend(n.users)
    return False


def _results_read(call: fx.Node) -> bool:
    """Whether the graph reads any result of ``call`` other than the new values of its bases
    (it returns the function's results, then one new value per base)."""
    value = call.meta.get("val")
    if not isinstance(value, (list, tuple)):
        return True
    results = len(value) - len(nodes_in(call.kwargs.get("_all_bases")))
    for user in call.users:
        index = user.args[1] if op_facts.is_getitem(user) and len(user.args) > 1 else None
        if not isinstance(index, int) or (index < results and user.users):
            return True
    return False
