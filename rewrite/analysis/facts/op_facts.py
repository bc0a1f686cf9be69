"""Facts about ops, derived from their schemas and names (never from a hand-written table): the
view op each scatter writes through, the in-place variant of a functional op and the functional
variant of an in-place one, which ops return aliases, which write, which are pointwise; how ops are
named and matched; and the one op the engine emits itself, ``rewrite::materialized_copy``.

This is the one place these facts are computed; the analyses, the actions and the semantics all
ask here.
"""
from __future__ import annotations

import functools
import operator
from typing import Collection, List, Optional, Tuple

import torch
import torch.fx as fx
from torch.multiprocessing.reductions import StorageWeakRef

from rewrite.analysis.facts.fake import fake_value

aten = torch.ops.aten

# --------------------------------------------------------------------------- the materialized copy
#
# The copy the engine emits to materialize a value: ``rewrite::materialized_copy``.
#
# It used to be ``copy_(empty_like(x), clone(x))``, which Inductor lowers as a buffer computed by
# a loop of its own; but its scheduler may then fuse that loop into a consumer that writes what the
# copy read, and drop the buffer as kernel-local: the copy is gone and the consumer reads memory
# it has already overwritten (found by the fuzzer, `x[4:5].t().mul_(0.5); x[:, 3].add_(x[0].tanh())`:
# the copy of `x[0]` was fused into the loop writing `x[:, 3]`).  Inductor calls a custom op as an
# extern kernel, which it neither inlines nor fuses, and orders before the next write of what it
# reads: a copy that stays a copy.  Its values are its operand's (the analyses read it as
# ``aten.clone``), in a fresh buffer with the operand's strides where they are dense.

# torch.library's low-level API rather than @custom_op: the call costs about 4 us on CPU instead
# of 12 (no Python autograd wrapper; compiled graphs run without autograd anyway).
_LIB = torch.library.Library("rewrite", "FRAGMENT")
try:
    torch.ops.rewrite.materialized_copy.default
except (AttributeError, RuntimeError):
    # exact strides: Inductor passes the operand laid out as traced, whatever the global
    # custom-op layout setting; the fake clones too, so fake and real strides agree everywhere
    _LIB.define("materialized_copy(Tensor x) -> Tensor", tags=(torch.Tag.needs_exact_strides,))
    _LIB.impl("materialized_copy", lambda x: x.clone(), "CompositeExplicitAutograd")

    @torch.library.register_fake("rewrite::materialized_copy", lib=_LIB)
    def _materialized_copy_fake(x: torch.Tensor) -> torch.Tensor:
        return x.clone()


MATERIALIZED_COPY = torch.ops.rewrite.materialized_copy.default


def is_materialized_copy(node) -> bool:
    return getattr(node, "op", None) == "call_function" and node.target in (MATERIALIZED_COPY,
                                                                          torch.ops.rewrite.materialized_copy)


# --------------------------------------------------------------------------- names and matching


def targets_match(target, allowed: Collection) -> bool:
    if target in allowed:
        return True
    packet = getattr(target, "overloadpacket", None) if isinstance(target, torch._ops.OpOverload) else None
    return packet is not None and packet in allowed


def op_display_name(target) -> str:
    """``aten.slice_scatter`` for overloads and packets; the function name otherwise."""
    if isinstance(target, torch._ops.OpOverload):
        return f"{target.namespace}.{target._opname}"
    if isinstance(target, torch._ops.OpOverloadPacket):
        return f"{target._qualified_op_name.replace('::', '.')}"
    if isinstance(target, torch._ops.HigherOrderOperator):
        return f"higher_order.{target.name()}"
    return str(getattr(target, "__name__", target))


# --------------------------------------------------------------------------- op relations

#: Scatter ops of the view family: ``X_scatter(base, src, *args)`` writes ``src`` into ``X(base, *args)``.
VIEW_SCATTER_NAMES = ("slice_scatter", "select_scatter", "diagonal_scatter", "as_strided_scatter")


def _base_name(op: torch._ops.OpOverload) -> str:
    return op.__name__.split(".")[0]


def is_op_overload(target) -> bool:
    return isinstance(target, torch._ops.OpOverload)


def resolved(target):
    """The overload a call of an op packet runs when its arguments fit the default overload
    (Inductor's passes emit ``aten.clone(x)``, the packet, beside ``aten.clone.default``); the
    engine's own materialized copy reads as the ``aten.clone`` it computes."""
    if isinstance(target, torch._ops.OpOverloadPacket) and "default" in target.overloads():
        target = target.default
    if target is MATERIALIZED_COPY:
        return aten.clone.default
    return target


def is_view_scatter_target(target) -> bool:
    return is_op_overload(target) and _base_name(target) in VIEW_SCATTER_NAMES


def is_view_scatter(node) -> bool:
    return isinstance(node, fx.Node) and node.op == "call_function" and is_view_scatter_target(node.target)


def _same_arg_types(a, b) -> bool:
    return [str(x.type) for x in a] == [str(x.type) for x in b]


@functools.lru_cache(maxsize=None)
def view_op_for_scatter(scatter: torch._ops.OpOverload) -> Optional[torch._ops.OpOverload]:
    """The view op a scatter writes through: ``slice_scatter.default`` -> ``slice.Tensor``."""
    name = _base_name(scatter)
    if not name.endswith("_scatter"):
        return None
    packet = getattr(getattr(torch.ops, scatter.namespace), name[: -len("_scatter")], None)
    if packet is None:
        return None
    want = scatter._schema.arguments[2:]
    for overload in packet.overloads():
        candidate = getattr(packet, overload)
        args = candidate._schema.arguments
        if args and _same_arg_types(args[1:], want) and candidate._schema.returns[0].alias_info is not None:
            return candidate
    return None


@functools.lru_cache(maxsize=None)
def scatter_for_view_op(view: torch._ops.OpOverload) -> Optional[torch._ops.OpOverload]:
    """The inverse relation: ``slice.Tensor`` -> ``slice_scatter.default``."""
    packet = getattr(getattr(torch.ops, view.namespace), _base_name(view) + "_scatter", None)
    if packet is None:
        return None
    for overload in packet.overloads():
        candidate = getattr(packet, overload)
        if view_op_for_scatter(candidate) is view:
            return candidate
    return None


@functools.lru_cache(maxsize=None)
def inplace_variant(op: torch._ops.OpOverload) -> Optional[torch._ops.OpOverload]:
    """``add.Tensor`` -> ``add_.Tensor``: same argument types, first argument written
    (``Tensor(a!)``).  ``_unsafe_op`` falls back to ``op_`` (``_unsafe_index_put`` ->
    ``index_put_``)."""
    ns = getattr(torch.ops, op.namespace)
    base = _base_name(op)
    names = [base + "_"]
    if base.startswith("_unsafe_"):
        names.append(base[len("_unsafe_"):] + "_")
    for name in names:
        packet = getattr(ns, name, None)
        if packet is None:
            continue
        for overload in packet.overloads():
            cand = getattr(packet, overload)
            args = cand._schema.arguments
            if (args and args[0].alias_info is not None and args[0].alias_info.is_write
                    and _same_arg_types(args, op._schema.arguments)):
                return cand
    return None


@functools.lru_cache(maxsize=None)
def functional_variant(op: torch._ops.OpOverload) -> Optional[torch._ops.OpOverload]:
    """``add_.Tensor`` -> ``add.Tensor``; ``prims._unsafe_index_put_`` -> ``aten._unsafe_index_put``:
    the op computing, as a new tensor, what the in-place op writes into its first argument."""
    base = _base_name(op)
    if not base.endswith("_") or base.endswith("__"):
        return None
    name = base[:-1]
    for ns_name in dict.fromkeys((op.namespace, "aten")):
        packet = getattr(getattr(torch.ops, ns_name), name, None)
        if packet is None:
            continue
        for overload in packet.overloads():
            cand = getattr(packet, overload)
            if inplace_variant(cand) is op or (
                    _same_arg_types(cand._schema.arguments, op._schema.arguments)
                    and not any(a.alias_info is not None and a.alias_info.is_write for a in cand._schema.arguments)):
                return cand
    return None


@functools.lru_cache(maxsize=None)   # schema facts of an op never change
def written_argument_positions(op) -> Tuple[int, ...]:
    """Schema positions of the arguments an op writes (``Tensor(a!)``)."""
    if not is_op_overload(op):
        return ()
    return tuple(i for i, a in enumerate(op._schema.arguments) if a.alias_info is not None and a.alias_info.is_write)


@functools.lru_cache(maxsize=None)   # schema facts of an op never change
def written_arguments(op) -> Tuple[frozenset, frozenset]:
    """Positions and names of the arguments an op overload (or the overload a packet call
    resolves to) writes; both empty for anything else."""
    op = resolved(op)
    positions = frozenset(written_argument_positions(op))
    arguments = op._schema.arguments if is_op_overload(op) else ()
    return positions, frozenset(arguments[i].name for i in positions if i < len(arguments))


def map_read_arguments(node: fx.Node, fn, written: Optional[Tuple[frozenset, frozenset]] = None) -> Tuple[tuple, dict]:
    """``node``'s arguments and keyword arguments with ``fn`` applied to those in the positions
    it reads; ``written`` (positions, names) defaults to its op's ``written_arguments``."""
    positions, names = written if written is not None else written_arguments(node.target)
    args = tuple(a if i in positions else fn(a) for i, a in enumerate(node.args))
    kwargs = {k: v if k in names else fn(v) for k, v in node.kwargs.items()}
    return args, kwargs


def read_arguments(node: fx.Node, written: Optional[Tuple[frozenset, frozenset]] = None) -> list:
    """The values of ``node``'s arguments in the positions it reads (see ``map_read_arguments``)."""
    positions, names = written if written is not None else written_arguments(node.target)
    return ([a for i, a in enumerate(node.args) if i not in positions]
            + [v for k, v in node.kwargs.items() if k not in names])


@functools.lru_cache(maxsize=None)   # schema facts of an op never change
def returns_view(op) -> bool:
    """The op's first result aliases its first argument without writing it (a view op)."""
    if not is_op_overload(op):
        return False
    returns = op._schema.returns
    return bool(returns) and returns[0].alias_info is not None and not returns[0].alias_info.is_write


@functools.lru_cache(maxsize=None)   # schema facts of an op never change
def returns_view_list(op) -> bool:
    """``split``, ``unbind``, ``chunk``...: a list of views of the first argument."""
    if not is_op_overload(op):
        return False
    returns = op._schema.returns
    return (len(returns) == 1 and returns[0].alias_info is not None and not returns[0].alias_info.is_write
            and isinstance(returns[0].type, torch.ListType))


@functools.lru_cache(maxsize=None)   # schema facts of an op never change
def returns_written(op) -> bool:
    """The op returns (an alias of) the argument it writes: ``add_``, ``copy_``, ``index_put_``."""
    if not is_op_overload(op):
        return False
    returns = op._schema.returns
    return bool(returns) and returns[0].alias_info is not None and returns[0].alias_info.is_write


@functools.lru_cache(maxsize=None)
def view_op_of_view_copy(op) -> Optional[torch._ops.OpOverload]:
    """The view op a functional view copies: ``slice_copy.Tensor`` -> ``slice.Tensor``,
    ``_unsafe_view`` -> ``view``, ``view_copy`` -> ``view``."""
    if not is_op_overload(op):
        return None
    base = _base_name(op)
    if base == "_unsafe_view":
        name, overload = "view", "default"
    elif base.endswith("_copy") and torch.Tag.view_copy in op.tags:
        name, overload = base[: -len("_copy")], op._overloadname
    else:
        return None
    packet = getattr(getattr(torch.ops, op.namespace), name, None)
    if packet is None or overload not in packet.overloads():
        return None
    view = getattr(packet, overload)
    return view if returns_view(view) else None


def is_pointwise(target) -> bool:
    return is_op_overload(target) and torch.Tag.pointwise in target.tags


def is_nondeterministic(target) -> bool:
    return is_op_overload(target) and torch.Tag.nondeterministic_seeded in target.tags


def is_copy_target(target) -> bool:
    return target in (aten.copy_.default, aten.copy_, torch.Tensor.copy_)


def is_getitem(node: fx.Node) -> bool:
    return node.op == "call_function" and node.target is operator.getitem


@functools.lru_cache(maxsize=None)   # kernel facts of an op never change
def decomposes(op) -> bool:
    """A composite op (a ``CompositeImplicitAutograd`` kernel): AOTAutograd decomposes it, so
    post-grad graphs hold what it decomposes into, except where Inductor's own passes write one
    (every post-grad ``view`` becomes ``reshape``)."""
    if not is_op_overload(op):
        return False
    try:
        return bool(torch._C._dispatch_has_kernel_for_dispatch_key(op.name(), "CompositeImplicitAutograd"))
    except Exception:  # noqa: BLE001 - an op the dispatcher does not know: assume it does
        return True


def hidden_alias(op) -> Optional[str]:
    """Why a rewrite may not create a call of ``op``, whose schema says it returns a new tensor
    while its decomposition may return its input itself (``atleast_1d`` of a 1-d tensor, a
    ``feature_dropout`` that is off, ``type_as`` of the same type): eagerly a write into the
    result writes the input; Inductor may compute it into a buffer of its own.  None for every
    other op (an op that says it returns an alias is read through its fake value:
    :func:`view_or_copy`)."""
    if not decomposes(op) or returns_view(op) or returns_view_list(op) or returns_written(op):
        return None
    return (f"{op} is a composite op (post-grad graphs hold what it decomposes into), and whether its result is "
            f"a new tensor or its input itself is not in its schema; emit the ops it decomposes into")


@functools.lru_cache(maxsize=None)   # schema facts of an op never change
def view_or_copy(op) -> bool:
    """An op whose schema says its result aliases its argument, but which copies when the
    argument's layout requires it: ``reshape`` (every ``view`` in Inductor's post-grad graphs is
    one, its ``view_to_reshape``), ``contiguous``, ``flatten``, ``to``, ``resolve_conj``...  These
    are the composite ops (a ``CompositeImplicitAutograd`` kernel: they decompose into a view or
    a copy) that return an alias.  Whether one call is a view is a fact of its operand's layout,
    which the call's fake value records (:func:`copies_its_source`).  Composites that are always
    views (``narrow``, ``movedim``) are among them; their fake values say they alias."""
    return returns_view(op) and not returns_view_list(op) and decomposes(op)


def hides_its_view(op) -> bool:
    """``_unsafe_view``: a view whose schema does not say so (``reshape`` of a tensor it had to
    copy returns ``_unsafe_view`` of the copy, so that autograd sees no alias).  It shares its
    operand's memory like ``view``, and a write through it writes the operand."""
    return is_op_overload(op) and _base_name(op) == "_unsafe_view"


def _storage(val):
    try:
        return StorageWeakRef(val.untyped_storage()).cdata
    except Exception:  # noqa: BLE001 - no storage (sparse, nested...)
        return None


def shares_storage(a, b) -> Optional[bool]:
    """Whether two (fake) tensors live in one storage; None when either has none."""
    if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor):
        return None
    sa, sb = _storage(a), _storage(b)
    return None if sa is None or sb is None else sa == sb


def copies_its_source(node: fx.Node, source) -> Optional[bool]:
    """For a call that may or may not return its operand's memory (:func:`view_or_copy`, a
    composite with a :func:`hidden_alias`): True when it copied its operand ``source``, False
    when it lives in its memory, None when their fake values cannot tell."""
    same = shares_storage(fake_value(node), fake_value(source))
    return None if same is None else not same


def alias_source(node: fx.Node, args: Optional[tuple] = None) -> Optional[fx.Node]:
    """The node whose memory ``node``'s value lives in, when it has no memory of its own: the
    base of a view, the written argument of an in-place op (``copy_`` returns its destination),
    ``x`` for ``getitem(split(x), i)``.  None for a node that owns its memory (or is no tensor).
    ``args`` replaces ``node.args`` (to ask about the node as it was before a rewrite).

    A :func:`view_or_copy` call that copied its operand (its fake value has a storage of its
    own) owns its memory; one whose fake values cannot tell counts as a view (and its map is
    unknown: ``layout_maps.map_from_root``).  A transaction may not change which of the two a
    call is (``Transaction.validate``), so the fake value answers for the graph before a
    rewrite too."""
    if node.op != "call_function":
        return None
    args = node.args if args is None else args
    target = node.target
    if is_op_overload(target):
        if returns_view_list(target):
            return None               # a list; its elements (getitem) are the views
        if returns_view(target):
            source = args[0] if args else None
            current = node.args[0] if node.args else None    # what its fake value was computed from
            if isinstance(current, fx.Node) and view_or_copy(target) and copies_its_source(node, current):
                return None
        elif hides_its_view(target):
            source = args[0] if args else None
        elif decomposes(target) and not returns_written(target):
            # a composite whose result may be its input itself (``hidden_alias``; a rewrite may
            # not create one, another pass may have): its fake value says
            current = node.args[0] if node.args else None
            source = args[0] if args else None
            if not (isinstance(current, fx.Node) and copies_its_source(node, current) is False):
                return None
        elif returns_written(target):
            positions = written_argument_positions(target)
            source = args[positions[0]] if positions and positions[0] < len(args) else None
        else:
            return None
        return source if isinstance(source, fx.Node) else None
    if target is operator.getitem and isinstance(args[0], fx.Node):
        producer = args[0]
        if producer.op == "call_function" and returns_view_list(producer.target) and isinstance(producer.args[0], fx.Node):
            return producer.args[0]
    return None


def root_of(node: fx.Node) -> fx.Node:
    """The node whose memory ``node`` lives in (through views and in-place results)."""
    seen = set()
    while node not in seen:
        seen.add(node)
        source = alias_source(node)
        if source is None:
            return node
        node = source
    return node


def called_functions(root, call: fx.Node) -> List[fx.GraphModule]:
    """The functions (subgraph modules of ``root``) a higher-order op's call passes, by argument
    (``cond``, ``while_loop``) or by keyword (the same op under ``auto_functionalized_v2``)."""
    return [getattr(root, a.target) for a in (*call.args, *call.kwargs.values())
            if isinstance(a, fx.Node) and a.op == "get_attr" and isinstance(getattr(root, a.target, None), fx.GraphModule)]


def is_view_list_node(node: fx.Node) -> bool:
    """A call of a :func:`returns_view_list` op (``split``)."""
    return node.op == "call_function" and returns_view_list(node.target)


def self_and_views(node: fx.Node, stop=()) -> List[fx.Node]:
    """``node`` and every node that views it, transitively (:func:`direct_views`), depth first;
    none through a node of ``stop``."""
    out, stack, seen = [], [node], set()
    while stack:
        n = stack.pop()
        if n in seen or n in stop:
            continue
        seen.add(n)
        out.append(n)
        stack.extend(direct_views(n))
    return out


def direct_views(node: fx.Node) -> List[fx.Node]:
    """The nodes whose :func:`alias_source` is ``node``: its users that view it, and the items
    (``getitem``) of a view list (``split``) taken of it, which are users of the list, not of
    ``node``.  Walkers over "``node`` and its views" follow this, so a write through a split
    item is seen as a write of ``node``."""
    out: List[fx.Node] = []
    for user in node.users:
        if alias_source(user) is node:
            out.append(user)
        elif is_view_list_node(user) and user.args and user.args[0] is node:
            out.extend(item for item in user.users if alias_source(item) is node)
    return out


def is_view_node(node: fx.Node) -> bool:
    """A view: aliases its source and writes nothing."""
    if node.op != "call_function":
        return False
    if is_op_overload(node.target):
        return (returns_view(node.target) and not returns_view_list(node.target)) or hides_its_view(node.target)
    return is_getitem(node) and alias_source(node) is not None


def written_nodes(node: fx.Node) -> List[fx.Node]:
    """The nodes whose memory this (ATen) node writes."""
    if node.op != "call_function" or not is_op_overload(node.target):
        return []
    out: List[fx.Node] = []
    schema_args = node.target._schema.arguments
    for i in written_argument_positions(node.target):
        value = node.args[i] if i < len(node.args) else node.kwargs.get(schema_args[i].name)
        out.extend(_nodes_in(value))
    return out


def _nodes_in(value) -> List[fx.Node]:
    if isinstance(value, fx.Node):
        return [value]
    if isinstance(value, (list, tuple)):
        return [n for v in value for n in _nodes_in(v)]
    return []


def reinplace_emits(op) -> Tuple:
    """The ops ``reinplace`` creates for a node calling ``op`` (a packet means every overload):
    ``X(base).copy_(src)`` for a view scatter, ``op_`` otherwise (None where there is none)."""
    overloads = [getattr(op, o) for o in op.overloads()] if isinstance(op, torch._ops.OpOverloadPacket) else [op]
    out = []
    for o in overloads:
        if not is_op_overload(o) or o._overloadname.endswith("out"):
            continue                      # out= variants never occur in functional graphs
        args = o._schema.arguments
        if not args or str(args[0].type) != "Tensor":
            continue                      # scalar overloads (add.int...) never write a tensor
        if is_view_scatter_target(o):
            out += [view_op_for_scatter(o), aten.copy_.default]
        else:
            out.append(inplace_variant(o))
    return tuple(out)


def is_private_copy(value, reader) -> bool:
    """Whether ``value`` is a buffer of its own that only ``reader`` uses: a materialized copy
    (or ``copy_(empty_like(v), clone(v))``), what the ``privatize`` action makes.  Writing it in
    place cannot change what anything else reads."""
    if isinstance(value, fx.Node) and is_materialized_copy(value):
        return set(value.users) == {reader}
    if not isinstance(value, fx.Node) or value.target is not aten.copy_.default \
            or set(value.users) != {reader} or len(value.args) < 2:
        return False
    empty, clone = value.args[0], value.args[1]
    return (isinstance(empty, fx.Node) and isinstance(clone, fx.Node)
            and empty.target is aten.empty_like.default and clone.target is aten.clone.default
            and empty.args[:1] == clone.args[:1])


def is_foreach(target) -> bool:
    """A ``_foreach_*`` op (one op over lists of tensors, pointwise per list element)."""
    return getattr(target, "__name__", "").startswith("_foreach_")


def is_inplace_foreach(target) -> bool:
    return is_foreach(target) and getattr(target, "__name__", "").split(".")[0].endswith("_")

