"""Fake values brought up to date after a pass edited a copy of a graph, as Inductor's
``FakeTensorUpdater.incremental_update`` does it, at the cost of the nodes that changed.

Inductor's reinplacing refreshes the fake values of the graph after canonicalizing its view
scatters: it finds which aliases share storage from them.  Our simulation of that pass must do
the same to decide the same.  ``incremental_update`` flattens the arguments of every node of the
graph, and asks of each whether it calls a subgraph, before it looks whether the node changed;
on an optimizer step's graph of 2,000 nodes that is most of the simulation's time.  For a graph
without subgraphs the result is the same when only the nodes whose hash changed, and the users
of nodes whose value changed, are looked at: that is what this does (a graph with subgraphs goes
to torch's own).

Canonicalizing a view scatter replaces it by a ``_generalized_scatter`` whose fake value has a
storage of its own, and torch's updater then recomputes every node downstream: each recomputed
value has a new storage, so its views must be recomputed too (a backward graph of 1,400 nodes
with 32 scatters recomputes 750).  Where the old and the new value are both fresh tensors laid
out alike, the node keeps the old one (:func:`reuse_replaced_values` for the scatters,
:func:`_fresh_as_before` for the nodes after them): every node then shares storage with exactly
the nodes it would share it with after torch's recomputation (the storages only have other
names), which is all Inductor's reinplacing reads from them besides the layout.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Callable, Dict, Set

import torch
import torch.fx as fx
from torch._dispatch.python import enable_python_dispatcher
from torch._inductor import fx_utils
from torch._inductor.virtualized import V
from torch.fx.experimental.symbolic_shapes import compute_unbacked_bindings, rebind_unbacked, statically_known_true
from torch.utils import _pytree as pytree
from torch.utils._ordered_set import OrderedSet


def refresh(updater: fx_utils.FakeTensorUpdater) -> int:
    """``updater.incremental_update()``, looking only at what changed; returns the number of
    nodes updated."""
    if updater.subgraph_updaters:
        return updater.incremental_update()
    graph = updater.gm.graph
    storages: Dict[int, int] = defaultdict(int)
    for node in graph.nodes:
        if storage := fx_utils.get_node_storage(node):
            storages[storage] += 1
    hashes = OrderedSet()
    to_process: Set[int] = set()
    updated = 0
    for node in graph.nodes:
        hashes.add(h := updater.hash_node(node))
        if h in updater.processed_hashes and id(node) not in to_process:
            continue
        valid, args, kwargs = fx_utils.get_fake_args_kwargs(node, updater.gm)
        if not valid or not _processed(node):
            continue
        with V.fake_mode, enable_python_dispatcher():
            value = node.target(*args, **kwargs)
        if "val" in node.meta and fx_utils._is_fake_tensor_same(value, node.meta["val"], storages, node=node):
            continue
        if _fresh_as_before(value, node.meta.get("val"), args, kwargs, storages):
            continue
        rebind_unbacked(V.fake_mode.shape_env, node, value)
        node.meta["val"] = value
        updated += 1
        if (env := V.fake_mode.shape_env) and (bindings := compute_unbacked_bindings(env, value)):
            node.meta["unbacked_bindings"] = bindings
        if storage := fx_utils.get_node_storage(node):
            storages[storage] += 1
        to_process.update(id(user) for user in node.users)
    updater.processed_hashes = hashes
    return updated


def _fresh_as_before(value, old, args, kwargs, storages) -> bool:
    """The node computes a fresh tensor (a storage no node has) laid out as its old value, which
    was fresh too (no input's storage): keeping the old value shares storage with the same nodes
    as taking the new one would once its views were recomputed, so they need not be."""
    if not isinstance(value, torch.Tensor) or not isinstance(old, torch.Tensor) or not _same_layout(value, old):
        return False
    if not torch._C._has_storage(value) or not torch._C._has_storage(old):
        return False
    if fx_utils.get_storage(value) in storages:
        return False
    inputs = {fx_utils.get_storage(t) for t in pytree.tree_leaves((args, kwargs))
              if isinstance(t, torch.Tensor) and torch._C._has_storage(t)}
    return fx_utils.get_storage(old) not in inputs


def _processed(node: fx.Node) -> bool:
    """The nodes torch's updater recomputes (it leaves Inductor's lowering-only ops alone)."""
    return callable(node.target) and not hasattr(node.target, "_inductor_lowering_function")


def arguments(graph: fx.Graph, replaced: Callable[[fx.Node], bool]) -> Dict[fx.Node, list]:
    """The argument leaves of every user of a node a pass may replace (``replaced``), to see
    later what it replaced (:func:`reuse_replaced_values`)."""
    users = dict.fromkeys(u for n in graph.nodes if replaced(n) for u in n.users)
    return {n: pytree.tree_leaves((n.args, n.kwargs)) for n in users}


def reuse_replaced_values(updater: fx_utils.FakeTensorUpdater, before: Dict[fx.Node, list],
                          fresh: Callable[[fx.Node], bool], replaced_fresh: Callable[[fx.Node], bool]) -> int:
    """Where a pass replaced a node ``old`` (erased) by a new node in the arguments of a node it
    kept, and both compute a fresh tensor (``replaced_fresh(old)``, ``fresh(new)``) with the same
    type, layout, sizes, strides and offset, give the new node the old fake value, and tell
    ``updater`` that it is current (so that :func:`refresh` recomputes its users, which find the
    storage they had, and no further).  Returns how many took one."""
    taken: Dict[fx.Node, object] = {}
    existed = {leaf for leaves in before.values() for leaf in leaves if isinstance(leaf, fx.Node)}
    for node, old_leaves in before.items():
        if node._erased:
            continue
        new_leaves = pytree.tree_leaves((node.args, node.kwargs))
        if len(new_leaves) != len(old_leaves):
            continue
        for old, new in zip(old_leaves, new_leaves):
            if old is new or not isinstance(old, fx.Node) or not isinstance(new, fx.Node):
                continue
            if new in taken or not old._erased or not replaced_fresh(old) or not fresh(new) or new in existed:
                continue
            value, own = old.meta.get("val"), new.meta.get("val")
            if value is not None and own is not None and _same_layout(value, own):
                taken[new] = value
    for new, value in taken.items():
        new.meta["val"] = value
        updater.processed_hashes.add(updater.hash_node(new))
    return len(taken)


def _same_layout(a, b) -> bool:
    return (fx_utils._is_fake_tensor_same(a, b, {}, check_storage=False)
            and statically_known_true(a.storage_offset() == b.storage_offset())
            and a.dtype == b.dtype)
