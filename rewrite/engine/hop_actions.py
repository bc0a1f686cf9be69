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
from typing import Dict, List, Sequence

import torch
import torch.fx as fx

from rewrite.analysis import mutation
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


def _split(captured: Sequence, mutated: Sequence[int]):
    return [captured[j] for j in mutated], [c for j, c in enumerate(captured) if j not in mutated]


def _alias_roots(values: Sequence, mutated: Sequence[int]):
    """Mutated operands that are views of other operands (``v = base[2:6]`` passed with
    ``base``) write the other operand too: only that root gets a private copy and is copied
    back, and the view is taken again from the copy inside the subgraph.  Returns ``(roots,
    derived)`` with ``derived[j] = (k, view steps from operand k to operand j)``."""
    position = {v: k for k, v in enumerate(values) if isinstance(v, fx.Node)}
    roots, derived = set(), {}
    for j in mutated:
        node, steps = values[j], []
        while True:
            source = mutation.view_source(node) if isinstance(node, fx.Node) else None
            if source is None:
                break
            steps.append(node)
            node = source
            if node in position and position[node] != j:
                k = position[node]
                derived[j] = (k, list(reversed(steps)))
                roots.add(k)
                break
        if j not in derived:
            roots.add(j)
    for j, (k, _) in list(derived.items()):
        while k in derived:                       # a view of a view of another operand
            k2, more = derived[k]
            derived[j] = (k2, more + derived[j][1])
            k = k2
        roots.discard(j)
        roots.add(k)
    return sorted(roots), derived


def _replay(graph: fx.Graph, steps: Sequence[fx.Node], source) -> object:
    """Take the views ``steps`` again, from ``source`` instead of the operand they started at."""
    value = source
    for step in steps:
        others = [a for a in list(step.args[1:]) + list(step.kwargs.values()) if isinstance(a, fx.Node)]
        if others:
            raise ActionError(f"cannot take the view {step.name} again inside the subgraph: it depends on "
                              f"{others[0].name}")
        first = value
        value = graph.node_copy(step, lambda a, first=first: first)
    return value


def thread_as_carried(ctx, loop: fx.Node) -> None:
    if not ctx.mutated_indices:
        raise ActionError("no mutated captured input to thread")
    root, graph, txn = ctx.root, loop.graph, ctx.txn
    cond_attr, body_attr, carried, captured = loop.args[:4]
    cond_gm, body_gm = _subgraph(root, cond_attr), _subgraph(root, body_attr)
    carried, captured = list(carried), list(captured)
    mutated, derived = _alias_roots(captured, sorted(ctx.mutated_indices))
    moved, kept = _split(captured, mutated + sorted(derived))
    moved = [captured[j] for j in mutated]

    def captured_env(mutable_values, kept_values, g=None):
        it_m, it_k = iter(mutable_values), iter(kept_values)
        env = {}
        for j in range(len(captured)):
            if j in mutated:
                env[j] = next(it_m)
            elif j not in derived:
                env[j] = next(it_k)
        for j, (k, steps) in derived.items():
            if g is None:
                env[j] = captured[j]
            else:
                env[j] = _replay(g, steps, env[k])
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
        g.output((*outs, *state, new_pred))
        return fx.GraphModule(module.attrs, g)

    cond_name = txn.add_submodule("rewrite_cond", build(False))
    body_name = txn.add_submodule("rewrite_body", build(True))
    # First evaluation of the condition, on the caller's tensors, before the loop.
    emit, carry = _outer(ctx, loop)
    pred0 = _inline(graph, cond_gm, carried + captured, emit, carry)[0]
    cond_node = txn.insert("get_attr", cond_name, (), before=loop, meta=False)
    body_node = txn.insert("get_attr", body_name, (), before=loop, meta=False)
    new_loop = txn.insert("call_function", loop.target,
                          (cond_node, body_node, (*carried, *moved, pred0), tuple(kept)),
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
    mutated, derived = _alias_roots(operands, sorted(ctx.mutated_indices))
    branches = [_subgraph(root, true_attr), _subgraph(root, false_attr)]

    passed = [k for k in range(len(operands)) if k not in derived]   # views are taken again inside

    def build(branch: fx.GraphModule) -> fx.GraphModule:
        g, module = fx.Graph(), _Module()
        inputs = [None] * len(operands)
        for k in passed:
            inputs[k] = g.placeholder(f"operand_{k}")
        state = []
        for j in mutated:
            inputs[j] = g.call_function(torch.clone, (inputs[j],))
            state.append(inputs[j])
        for j, (k, steps) in derived.items():
            inputs[j] = _replay(g, steps, inputs[k])
        emit, carry = _local(g, module)
        outs = _inline(g, branch, inputs, emit, carry)
        g.output((*outs, *state))
        return fx.GraphModule(module.attrs, g)

    n_out = len([n for n in branches[0].graph.nodes if n.op == "output"][0].args[0])
    names = [txn.add_submodule("rewrite_branch", build(b)) for b in branches]
    attrs = [txn.insert("get_attr", name, (), before=cond, meta=False) for name in names]
    new_cond = txn.insert("call_function", cond.target, (pred, *attrs, tuple(operands[k] for k in passed)), cond.kwargs,
                          before=cond, like=cond, meta=False)
    txn.replace_uses(cond, new_cond)
    anchor = new_cond
    for k, j in enumerate(mutated):
        value = txn.insert("call_function", operator.getitem, (new_cond, n_out + k), after=anchor, meta=False)
        anchor = txn.insert("call_method", "copy_", (operands[j], value), after=value, meta=False)
    txn.erase(cond)
    ctx.rebind(cond, new_cond)
