"""Actions that make the mutations of higher-order ops explicit as data flow.

Both work on Dynamo graphs (before AOTAutograd), where subgraphs still contain the user's
in-place ops on captured tensors.  After the rewrite no subgraph writes a tensor it received;
the new values leave the op as outputs and are copied back into the caller's tensors right after
it.  That order is data flow now, so functionalization and every later pass preserve it.

Subgraphs may hold higher-order ops of their own (a ``cond`` inside a ``while_loop`` body): the
rule set rewrites innermost subgraphs first, so by the time an outer op is rewritten its nested
ops no longer mutate their operands in hiding; their subgraph modules are carried over into the
new subgraphs.
"""
from __future__ import annotations

import operator
from typing import Dict, List, Optional, Sequence, Tuple

import torch
import torch.fx as fx
from torch._prims_common import is_contiguous_or_false
from torch.fx.experimental.symbolic_shapes import statically_known_true

from rewrite.analysis.semantics import layout_maps
from rewrite.analysis.facts import mutation
from rewrite.analysis.semantics import overlap
from rewrite.analysis.semantics import regions
from rewrite.analysis.facts.op_facts import MATERIALIZED_COPY
from rewrite.analysis.graph_facts import with_views
from rewrite.analysis.facts.fake import fake_value
from rewrite.analysis.semantics.regions import default_storage_key
from rewrite.engine.errors import ActionError


def _subgraph(root: fx.GraphModule, attr: fx.Node) -> fx.GraphModule:
    if not isinstance(attr, fx.Node) or attr.op != "get_attr":
        raise ActionError(f"expected a subgraph (get_attr), got {attr}")
    sub = getattr(root, attr.target, None)
    if not isinstance(sub, fx.GraphModule):
        raise ActionError(f"{attr.target} is not a GraphModule")
    return sub


class _Module:
    """Attributes a new subgraph module carries (the nested subgraphs it calls)."""

    def __init__(self):
        self.attrs: Dict[str, torch.nn.Module] = {}

    def add(self, name: str, value) -> str:
        base, i = name.replace(".", "_"), 0
        while f"{base}_{i}" in self.attrs:
            i += 1
        self.attrs[f"{base}_{i}"] = value
        return f"{base}_{i}"


def _inline(graph: fx.Graph, sub: fx.GraphModule, inputs: Sequence, emit, carry) -> List:
    """Copy ``sub``'s nodes into ``graph`` with its placeholders bound to ``inputs``; return its
    outputs as a list.  ``emit(node, env)`` inserts one copied node; ``carry(name, module)``
    makes a nested subgraph available where the copy lives and returns its attribute name."""
    placeholders = [n for n in sub.graph.nodes if n.op == "placeholder"]
    if len(placeholders) != len(inputs):
        raise ActionError(f"subgraph takes {len(placeholders)} inputs, got {len(inputs)}")
    env: Dict[fx.Node, object] = dict(zip(placeholders, inputs))
    result = None
    for n in sub.graph.nodes:
        if n.op == "placeholder":
            continue
        if n.op == "output":
            result = torch.fx.node.map_arg(n.args[0], lambda a: env[a])
            break
        if n.op == "get_attr":
            env[n] = emit(n, env, carry(n.target, getattr(sub, n.target)))
            continue
        env[n] = emit(n, env, None)
    return list(result) if isinstance(result, (list, tuple)) else [result]


def _local(graph: fx.Graph, module: _Module):
    def emit(n, env, attr_name):
        if attr_name is not None:
            return graph.get_attr(attr_name)
        return graph.node_copy(n, lambda a: env[a])

    return emit, module.add


def _outer(ctx, before: fx.Node):
    txn = ctx.txn

    def emit(n, env, attr_name):
        if attr_name is not None:
            return txn.insert("get_attr", attr_name, (), before=before, meta=False)
        return txn.copy_node(n, lambda a: env[a], before=before)

    return emit, lambda name, module: txn.add_submodule(name.replace(".", "_"), module)


def _kept_clone(g: fx.Graph, value, state: set):
    """A branch result that is ``clone()`` of the state (or of a view of it), as a copy no pass
    removes: Inductor's noop removal drops the ``clone``, and the branch then returns the state and
    its flat view as two results in one buffer, which a later in-place write of the one changes in
    the other (fuzz seed 197 p915: ``return p.clone()`` where ``p`` is the operand the branch
    writes; the Inductor base wrote the result's scatter into the input's new value).  The copy
    the program asked for, no more."""
    if not (isinstance(value, fx.Node) and value.args and value.args[0] in state and not value.kwargs
            and not value.users         # (one the branch also reads or writes stays as it is)
            and (value.op == "call_method" and value.target == "clone"
                 or value.op == "call_function" and value.target is torch.clone)):
        return value
    return g.call_function(MATERIALIZED_COPY, (value.args[0],))


def _laid_out_as_eagerly(g: fx.Graph, value, like):
    """``value`` as a branch returns it: ``contiguous()`` of it where eagerly ``like`` (the branch's
    own result, which ``value`` may replace) is contiguous.
    A branch that writes a state through a reordering view (``x.mT.index_copy_(...)``) makes the
    state's functional value that view's inverse, laid out transposed (``_state_flat``), and so
    is what the branch computes from it (``p.clone()``): ``cond`` refuses to merge a transposed
    result with the other branch's contiguous one (fuzz seed 193 p462).  Where the layout is
    already contiguous, as eagerly, ``contiguous()`` traces to nothing.  Asked only of a branch
    that so writes a state (elsewhere a ``contiguous()`` of ``c = p.clone(); c.add_(5.0)`` lost
    the write to a net that took the clone for a copy of its source)."""
    example = like.meta.get("example_value") if isinstance(like, fx.Node) else None
    if not (isinstance(example, torch.Tensor) and is_contiguous_or_false(example)):
        return value
    return g.call_method("contiguous", (value,))


#: Views (as Dynamo spells them) whose in-place writes functionalization carries back to the
#: base as a scatter laid out as the base.  A write through any other view (a transpose:
#: ``x.mT.index_copy_(...)``) makes the base's functional value that view's inverse, laid out
#: transposed behind a wrapper that still says contiguous (fuzz seed 193 p462).
_LAYOUT_KEEPING_VIEWS = frozenset({
    "__getitem__", "getitem", "select", "narrow", "diagonal", "as_strided", "view", "view_as", "reshape",
    "reshape_as", "unsqueeze", "squeeze", "flatten", "unflatten", "detach", "alias", "split", "chunk", "unbind",
})
_LIST_VIEWS = frozenset({"split", "chunk", "unbind", "tensor_split"})


def _view_name(node: fx.Node) -> str:
    if node.op == "call_method":
        return node.target
    if node.target is getattr:
        return node.args[1]
    return getattr(node.target, "__name__", str(node.target))


def _written_through_reordering_view(start: fx.Node) -> bool:
    """Is ``start`` written through a chain of views with one not in ``_LAYOUT_KEEPING_VIEWS``?"""
    stack, seen = [(start, False)], set()
    while stack:
        node, reordered = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for user in node.users:
            if reordered and node in mutation.written_operands(user):
                return True
            if mutation.view_source(user) is node:
                stack.append((user, reordered or _view_name(user) not in _LAYOUT_KEEPING_VIEWS))
            elif user.target is operator.getitem and _view_name(node) in _LIST_VIEWS:
                stack.append((user, reordered))         # an item of `x.split(...)` is a view of `x`
    return False


def _state_flat(g: fx.Graph, state: fx.Node) -> fx.Node:
    """A branch's new value of a state, flat.  Where the branch writes it through a reordering
    view, its functional value is laid out transposed behind a wrapper that says contiguous:
    ``view(-1)`` (and ``contiguous()``, which reads the wrapper) fail or do nothing while
    AOTAutograd traces the branch, so a contiguous clone is flattened, in such a branch only."""
    if _written_through_reordering_view(state):
        state = g.call_method("clone", (state,), {"memory_format": torch.contiguous_format})
    return g.call_method("view", (state, -1))


def _split(captured: Sequence, mutated: Sequence[int]):
    return [captured[j] for j in mutated], [c for j, c in enumerate(captured) if j not in mutated]


def _operand_views(values: Sequence) -> Dict[int, Tuple[int, List[fx.Node]]]:
    """Operands that are views of other operands (``v = base[2:6]`` passed with ``base``):
    ``{j: (k, view steps from operand k to operand j)}``, with ``k`` an operand that is not
    itself such a view.  Inside the rewritten subgraph these views are taken again from ``k``
    (from its private copy when ``k`` is written), so they see the subgraph's writes exactly as
    the caller's aliases did, and no two operands of the new op share memory."""
    position = {v: k for k, v in enumerate(values) if isinstance(v, fx.Node)}
    derived: Dict[int, Tuple[int, List[fx.Node]]] = {}
    for j, value in enumerate(values):
        node, steps = value, []
        while isinstance(node, fx.Node):
            source = mutation.view_source(node)
            if source is None:
                break
            steps.append(node)
            node = source
            if node in position and position[node] != j:
                derived[j] = (position[node], list(reversed(steps)))
                break
    for j in list(derived):
        k, steps = derived[j]
        seen = {j}
        while k in derived:                       # a view of a view of another operand
            if k in seen:
                raise ActionError("operands are views of each other in a cycle")
            seen.add(k)
            k2, more = derived[k]
            k, steps = k2, more + steps
        derived[j] = (k, steps)
    return derived


def _written_roots(mutated: Sequence[int], derived) -> List[int]:
    return sorted({derived[j][0] if j in derived else j for j in mutated})


def _check_separate(values: Sequence, passed: Sequence[int], what: str) -> List[int]:
    """Operands passed to the new op must not share memory unless the graph shows how (a view
    chain, handled by :func:`_operand_views`): aliased inputs of the compiled function
    (``f(base, base[0])``) share it invisibly, and a subgraph that no longer writes them would
    read one after a write through the other without seeing it; the rewrite declines.  (torch's
    own functionalization of ``cond``, which ``fallback compiler`` leaves the op to, misses such
    a read as well: see docs/language.md.)  Operands of one storage whose memory cannot overlap
    (``f(base[:2], base[2:])``) see nothing of each other's writes, but the new op may not take
    both either (its functionalization refuses aliased operands): such an operand's position is
    returned (the later of the two), for the caller to pass a copy or decline."""
    seen: Dict[object, List[Tuple[int, regions.Region]]] = {}
    apart: List[int] = []
    for j in passed:
        val = fake_value(values[j]) if isinstance(values[j], fx.Node) else None
        if val is None:
            continue
        try:
            key = default_storage_key(val)
            region = regions.region_of_tensor(val, key)
        except (RuntimeError, NotImplementedError, TypeError):
            continue
        for k, other in seen.get(key, []):
            a, b = values[k], values[j]
            if overlap.may_overlap(other, region):
                raise ActionError(f"{what} {k} (`{a.name}`) and {j} (`{b.name}`) share memory without a view "
                                  f"between them in the graph (aliased inputs of the compiled function): the "
                                  f"rewrite cannot keep a write through one visible through the other")
        if seen.get(key):
            apart.append(j)
        seen.setdefault(key, []).append((j, region))
    return apart


def _check_dense_layout(values: Sequence, roots: Sequence[int], what: str) -> None:
    """A written operand must be laid out contiguously (a storage offset is fine: each branch
    works on a contiguous copy at offset 0).  Inductor may hand ``cond`` a contiguous buffer
    for an operand that is written after it, while it compiled the branches for the operand's
    own strides (fuzz p782: a transposed input; the branches' inputs then fail their stride
    checks); such operands are left to the compiler."""
    for j in roots:
        val = fake_value(values[j]) if isinstance(values[j], fx.Node) else None
        if val is None:
            raise ActionError(f"{what} {j} has no example value; its layout is unknown")
        if not _exactly_contiguous(val):
            raise ActionError(f"{what} {j} (`{values[j].name}`) has strides {tuple(val.stride())} of its own "
                              f"(not contiguous): Inductor may pass the branches another layout")


def _check_not_copied_in_another_layout(values: Sequence, roots: Sequence[int], op: fx.Node, what: str) -> None:
    """A written operand that a ``copy_`` before ``op`` filled from a tensor laid out otherwise:
    functionalized, the operand is ``aten.copy(dst, src)``, which Inductor lowers in the layout of
    ``src``, while the branches are compiled for the layout of ``dst`` (fuzz program 1232:
    ``x0.copy_(x1.t()[:, 1:4])``; the branch's input failed its stride check).  Left to the
    compiler, which passes the input itself."""
    for j in roots:
        v = values[j]
        if not isinstance(v, fx.Node):
            continue
        for n in op.graph.nodes:
            if n is op:
                break
            if not mutation.is_copy(n) or len(n.args) < 2 or n.args[0] is not v or not isinstance(n.args[1], fx.Node):
                continue
            dst, src = fake_value(v), fake_value(n.args[1])
            if dst is None or src is None or tuple(dst.shape) != tuple(src.shape) or any(
                    not statically_known_true(a == b) for a, b in zip(dst.stride(), src.stride())):
                raise ActionError(f"{what} {j} (`{v.name}`) is filled by {n.name} from a tensor laid out otherwise: "
                                  f"Inductor may pass the branches that tensor's layout")
        for n in op.graph.nodes:
            if n is op:
                break
            for w in mutation.written_operands(n):
                turned = _turned_view_of(w, v)
                if turned is not None:
                    raise ActionError(f"{what} {j} (`{v.name}`) is written by {n.name} through {turned.name}, a view "
                                      f"laid out in another order: Inductor may pass the branches that layout "
                                      f"(fuzz program 2790)")


def _turned_view_of(w: fx.Node, v: fx.Node) -> Optional[fx.Node]:
    """A view between ``w`` and ``v`` (``w`` a view of ``v``) whose dimensions are not in ``v``'s
    order of strides (a transpose or permute), or None (``w`` is no view of ``v``, or none is)."""
    turned, cur, depth = None, w, 0
    while isinstance(cur, fx.Node) and cur is not v and depth < 64:
        val = fake_value(cur)
        if val is not None and not _in_stride_order(val):
            turned = cur
        cur, depth = mutation.view_source(cur), depth + 1
    own = fake_value(v)
    if cur is not v or (own is not None and not _in_stride_order(own)):   # no view of v, or v itself turned
        return None
    return turned


def _in_stride_order(val) -> bool:
    """Strides that do not grow from one dimension (of more than one element) to the next."""
    strides = [st for size, st in zip(val.shape, val.stride()) if not statically_known_true(size <= 1)]
    return all(statically_known_true(a >= b) for a, b in zip(strides, strides[1:]))


def _at_offset_zero(node) -> bool:
    """A written operand (contiguous: ``_check_dense_layout``) that starts at storage offset 0:
    views of it that address storage directly can be taken again from the branch's copy."""
    val = fake_value(node) if isinstance(node, fx.Node) else None
    return val is not None and statically_known_true(val.storage_offset() == 0)


_LAYOUT_VIEWS = {"as_strided", "as_strided_"}
_STORAGE_ADDRESSED = _LAYOUT_VIEWS | {"as_strided_scatter", "as_strided_copy"}


def _addresses_storage(gm: fx.GraphModule, depth: int = 0) -> bool:
    """Does a function (or a function of a higher-order op in it) call an op whose arguments are
    storage addresses?"""
    for node in gm.graph.nodes:
        if node.op in ("call_function", "call_method"):
            name = node.target if isinstance(node.target, str) else getattr(node.target, "__name__", "")
            if name.split(".")[0] in _STORAGE_ADDRESSED:
                return True
        elif node.op == "get_attr" and depth < 16:
            sub = getattr(gm, node.target, None)
            if isinstance(sub, fx.GraphModule) and _addresses_storage(sub, depth + 1):
                return True
    return False


def _check_copies_address_alike(functions: Sequence[fx.GraphModule], written: Sequence, what: str) -> None:
    """The rewritten op's functions work on private copies of the written tensors (contiguous, at
    storage offset 0): an ``as_strided`` in them addresses the copy's storage, where the program's
    addressed the tensor's own.  Only a tensor that fills its storage from offset 0 contiguously
    reads the same either way (fuzz program 3577: a loop condition's ``x.as_strided(...)`` on a
    strided input; the loop then wrote other elements)."""
    if not any(_addresses_storage(f) for f in functions):
        return
    for node in written:
        val = fake_value(node) if isinstance(node, fx.Node) else None
        if val is None or not (_exactly_contiguous(val) and layout_maps.fills_its_storage(val)):
            raise ActionError(f"{what} `{getattr(node, 'name', node)}` is written by functions that address storage "
                              f"(as_strided) and does not fill its storage contiguously from offset 0: its private "
                              f"copy would hold other elements at those addresses")


def _replay(graph: fx.Graph, steps: Sequence[fx.Node], source, same_layout: bool = True) -> object:
    """Take the views ``steps`` again, from ``source`` instead of the operand they started at.
    ``same_layout=False``: ``source`` may be laid out differently from that operand (a contiguous
    copy of a strided one), so views that address storage directly cannot be replayed."""
    value = source
    for step in steps:
        others = [a for a in list(step.args[1:]) + list(step.kwargs.values()) if isinstance(a, fx.Node)]
        if others:
            raise ActionError(f"cannot take the view {step.name} again inside the subgraph: it depends on "
                              f"{others[0].name}")
        name = getattr(step.target, "__name__", str(step.target)).split(".")[0]
        if not same_layout and name in _LAYOUT_VIEWS:
            raise ActionError(f"cannot take the view {step.name} ({name}) again from a copy laid out differently")
        first = value
        value = graph.node_copy(step, lambda a, first=first: first)
    return value


def _loop_layout_copy(ctx, tensor: fx.Node, before: fx.Node, force: bool = False):
    """``while_loop`` requires the body to return its carried state laid out as it came in; the
    body's private copy is contiguous, so a strided tensor enters the loop as a contiguous copy
    (made after the first evaluation of the condition, which may write it); so does one that
    must not enter as itself (``force``).  ``(value, laid out as tensor)``."""
    val = fake_value(tensor)
    same = val is not None and _exactly_contiguous(val)
    if (val is None or same) and not force:
        return tensor, True
    copy = ctx.txn.insert("call_function", torch.clone, (tensor,), {"memory_format": torch.contiguous_format},
                          before=before, meta=False)
    return copy, same


def _copy_if(ctx, tensor, wanted: bool, before: fx.Node):
    """``tensor``, or where ``wanted`` a copy of it taken just before ``before``."""
    if not wanted or not isinstance(tensor, fx.Node):
        return tensor
    return ctx.txn.insert("call_function", torch.clone, (tensor,), before=before, meta=False)


def _exactly_contiguous(val) -> bool:
    """Strides equal to a fresh contiguous tensor's in every dimension, size-1 ones included
    (``while_loop`` compares strides as they are; ``is_contiguous`` ignores size-1 dimensions,
    so ``x[3:5:2]``, one element with stride 2, would pass it)."""
    expected = 1
    for size, stride in reversed(list(zip(val.shape, val.stride()))):
        if not statically_known_true(stride == expected):
            return False
        expected = expected * size
    return True


def thread_as_carried(ctx, loop: fx.Node) -> None:
    if not ctx.mutated_indices:
        raise ActionError("no mutated captured input to thread")
    root, graph, txn = ctx.root, loop.graph, ctx.txn
    cond_attr, body_attr, carried, captured = loop.args[:4]
    cond_gm, body_gm = _subgraph(root, cond_attr), _subgraph(root, body_attr)
    carried, captured = list(carried), list(captured)
    derived = _operand_views(captured)
    mutated = _written_roots(ctx.mutated_indices, derived)
    kept_idx = [j for j in range(len(captured)) if j not in mutated and j not in derived]
    both = carried + captured
    # disjoint parts of one tensor (inputs `base[:5]`, `base[5:]`) enter the new loop as copies,
    # which the op may take together (fuzz program 1995); nothing the loop writes is in the other
    apart = {both[p] for p in _check_separate(both, list(range(len(carried))) + [len(carried) + j for j in mutated + kept_idx],
                                              "loop input")}
    moved = [captured[j] for j in mutated]
    kept = [captured[j] for j in kept_idx]
    _check_copies_address_alike([cond_gm, body_gm], moved, "captured input")
    # First evaluation of the condition, on the caller's tensors, before the loop.
    emit, carry = _outer(ctx, loop)
    pred0 = _inline(graph, cond_gm, carried + captured, emit, carry)[0]
    entering, same_layout = [], True
    for tensor in moved:
        value, same = _loop_layout_copy(ctx, tensor, loop, force=tensor in apart)
        entering.append(value)
        same_layout &= same
    carried_in, kept = [_copy_if(ctx, t, t in apart, loop) for t in carried], [_copy_if(ctx, t, t in apart, loop) for t in kept]

    def captured_env(mutable_values, kept_values, g):
        env = dict(zip(mutated, mutable_values))
        env.update(zip(kept_idx, kept_values))
        for j, (k, steps) in derived.items():
            env[j] = _replay(g, steps, env[k], same_layout)
        return [env[j] for j in range(len(captured))]

    def build(with_body: bool) -> fx.GraphModule:
        g, module = fx.Graph(), _Module()
        cs = [g.placeholder(f"carried_{k}") for k in range(len(carried))]
        ms = [g.placeholder(f"state_{k}") for k in range(len(moved))]
        pred = g.placeholder("pred")
        ks = [g.placeholder(f"captured_{k}") for k in range(len(kept))]
        if not with_body:
            g.output(g.call_function(torch.clone, (pred,)))
            return fx.GraphModule(module.attrs, g)
        state = [g.call_function(torch.clone, (m,)) for m in ms]   # private, mutable copies
        emit, carry = _local(g, module)
        outs = _inline(g, body_gm, cs + captured_env(state, ks, g), emit, carry)
        new_pred = _inline(g, cond_gm, outs + captured_env(state, ks, g), emit, carry)[0]
        # the state leaves laid out exactly as it entered: after a write through a transposed
        # view, functionalization may give it the view's strides (fuzz program 4667), and a
        # captured intermediate may enter with strides other than Dynamo's example value had (seed
        # 139 p131: a `cond` result, contiguous for Dynamo, (1, 3) when AOTAutograd traces it);
        # while_loop refuses either
        final = [g.call_method("copy_", (g.call_function(torch.empty_like, (m,)), t)) for m, t in zip(ms, state)]
        g.output((*outs, *final, new_pred))
        return fx.GraphModule(module.attrs, g)

    cond_name = txn.add_submodule("rewrite_cond", build(False))
    body_name = txn.add_submodule("rewrite_body", build(True))
    cond_node = txn.insert("get_attr", cond_name, (), before=loop, meta=False)
    body_node = txn.insert("get_attr", body_name, (), before=loop, meta=False)
    new_loop = txn.insert("call_function", loop.target,
                          (cond_node, body_node, (*carried_in, *entering, pred0), tuple(kept)),
                          before=loop, like=loop, meta=False)
    txn.replace_uses(loop, new_loop)
    anchor = new_loop
    for k, tensor in enumerate(moved):
        value = txn.insert("call_function", operator.getitem, (new_loop, len(carried) + k), after=anchor, meta=False)
        anchor = txn.insert("call_method", "copy_", (tensor, value), after=value, meta=False)
    txn.erase(loop)
    ctx.rebind(loop, new_loop)


def return_from_branches(ctx, cond: fx.Node) -> None:
    if not ctx.mutated_indices:
        raise ActionError("no mutated operand to return")
    root, txn = ctx.root, ctx.txn
    pred, true_attr, false_attr, operands = cond.args[:4]
    operands = list(operands)
    derived = _operand_views(operands)
    mutated = _written_roots(ctx.mutated_indices, derived)
    passed = [k for k in range(len(operands)) if k not in derived]   # views are taken again inside
    apart = _check_separate(operands, passed, "operand")
    if apart:
        raise ActionError(f"operand {apart[0]} (`{operands[apart[0]].name}`) and another are disjoint parts of one "
                          f"tensor; the rewritten op could not take both")
    _check_dense_layout(operands, mutated, "operand")
    _check_not_copied_in_another_layout(operands, mutated, cond, "operand")
    plain = {j: _at_offset_zero(operands[j]) for j in mutated}
    branches = [_subgraph(root, true_attr), _subgraph(root, false_attr)]
    _check_copies_address_alike(branches, [operands[j] for j in mutated], "operand")

    def build(branch: fx.GraphModule) -> fx.GraphModule:
        g, module = fx.Graph(), _Module()
        inputs = [None] * len(operands)
        for k in passed:
            inputs[k] = g.placeholder(f"operand_{k}")
        state = []
        for j in mutated:
            # a copy Inductor cannot drop: its `remove_noop_ops` removes a `clone` whose result
            # is not returned, and a branch's scatter then returns a result laid out like the
            # operand, which by then may be another tensor at another storage offset (a full
            # `copy_` into the operand removed as a no-op), while the other branch returns a
            # contiguous copy: cond's merge fails (fuzz p3501)
            dense = g.call_method("contiguous", (inputs[j],))
            inputs[j] = g.call_function(MATERIALIZED_COPY, (dense,))
            state.append(inputs[j])
        for j, (k, steps) in derived.items():
            inputs[j] = _replay(g, steps, inputs[k], same_layout=plain.get(k, True))
        emit, carry = _local(g, module)
        outs = _inline(g, branch, inputs, emit, carry)
        # returned flat: cond merges the branches' layouts by matching each stride with the
        # product of the inner sizes as an expression, which fails for a contiguous copy whose
        # symbolic sizes it cannot prove >= 1 (stride `Max(1, size)`; fuzz program 1162,
        # `x0.view(8, 2)` of a dynamic input); one dimension of stride 1 always merges
        aliases = with_views(state)
        kept = [_kept_clone(g, o, aliases) for o in outs]
        if any(_written_through_reordering_view(t) for t in state):
            kept = [_laid_out_as_eagerly(g, k, like=o) for k, o in zip(kept, outs)]
        g.output((*kept, *(_state_flat(g, t) for t in state)))
        return fx.GraphModule(module.attrs, g)

    n_out = len([n for n in branches[0].graph.nodes if n.op == "output"][0].args[0])
    names = [txn.add_submodule("rewrite_branch", build(b)) for b in branches]
    attrs = [txn.insert("get_attr", name, (), before=cond, meta=False) for name in names]
    new_cond = txn.insert("call_function", cond.target, (pred, *attrs, tuple(operands[k] for k in passed)), cond.kwargs,
                          before=cond, like=cond, meta=False)
    txn.replace_uses(cond, new_cond)
    anchor = new_cond
    for k, j in enumerate(mutated):
        flat = txn.insert("call_function", operator.getitem, (new_cond, n_out + k), after=anchor, meta=False)
        value = txn.insert("call_method", "view_as", (flat, operands[j]), after=flat, meta=False)
        anchor = txn.insert("call_method", "copy_", (operands[j], value), after=value, meta=False)
    txn.erase(cond)
    ctx.rebind(cond, new_cond)
