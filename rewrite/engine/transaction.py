"""All-or-nothing graph edits with an undo log.

Actions never touch the graph directly: they insert, rewire and erase through a
:class:`Transaction`.  Erasures are deferred to :meth:`commit`, so a rollback only has to restore
the arguments it changed and drop the nodes and submodules it created.  ``validate`` checks what
the transaction touched (inputs defined before use, fake-tensor metadata present and consistent
with what it replaced), and the whole graph with ``lint()`` when it is small or when asked to.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

import torch
import torch.fx as fx

from rewrite.analysis.graph_facts import fake_args, meta_value

FULL_LINT_LIMIT = 3000  # nodes; above this, validation checks only what the transaction touched


class ValidationError(RuntimeError):
    pass


class Transaction:
    def __init__(self, root: fx.GraphModule, graph: fx.Graph, strict: bool = False, on_new_node=None):
        self.root, self.graph, self.strict = root, graph, strict
        self.created: List[fx.Node] = []
        self.arg_changes: List[Tuple[fx.Node, tuple, dict]] = []
        self.meta_changes: List[Tuple[fx.Node, dict]] = []
        self.to_erase: List[fx.Node] = []
        self.modules: List[str] = []
        self.replaced: Dict[fx.Node, Any] = {}   # node -> what its uses now read
        self._on_new_node = on_new_node

    # ------------------------------------------------------------------ edits

    def insert(self, op: str, target, args: tuple, kwargs: Optional[dict] = None, *,
               before: Optional[fx.Node] = None, after: Optional[fx.Node] = None,
               like: Optional[fx.Node] = None, meta: bool = True) -> fx.Node:
        ctx = self.graph.inserting_before(before) if before is not None else self.graph.inserting_after(after)
        with ctx:
            node = self.graph.create_node(op, target, tuple(args), dict(kwargs or {}))
        if like is not None:
            for key in ("stack_trace", "nn_module_stack", "source_fn_stack", "seq_nr", "original_aten"):
                if key in like.meta:
                    node.meta[key] = like.meta[key]
        self.created.append(node)
        if meta:
            propagate_meta(node)
        if self._on_new_node is not None:
            self._on_new_node(node)
        return node

    def copy_node(self, node: fx.Node, env: Callable[[fx.Node], Any], *, before: fx.Node) -> fx.Node:
        with self.graph.inserting_before(before):
            new = self.graph.node_copy(node, env)
        self.created.append(new)
        if self._on_new_node is not None:
            self._on_new_node(new)
        return new

    def set_args(self, node: fx.Node, args: tuple, kwargs: Optional[dict] = None) -> None:
        self.arg_changes.append((node, node.args, dict(node.kwargs)))
        node.args = tuple(args)
        if kwargs is not None:
            node.kwargs = dict(kwargs)

    def replace_uses(self, old: fx.Node, new: Any, where: Optional[Callable[[fx.Node], bool]] = None) -> None:
        for user in list(old.users):
            if user is new or (where is not None and not where(user)):
                continue
            self.arg_changes.append((user, user.args, dict(user.kwargs)))
            user.replace_input_with(old, new)
        self.replaced[old] = new

    def erase(self, node: fx.Node) -> None:
        if node not in self.to_erase:
            self.to_erase.append(node)

    def add_submodule(self, prefix: str, module: torch.nn.Module) -> str:
        i = 0
        while hasattr(self.root, f"{prefix}_{i}"):
            i += 1
        name = f"{prefix}_{i}"
        self.root.add_submodule(name, module)
        self.modules.append(name)
        return name

    # ------------------------------------------------------------------ end

    def validate(self) -> None:
        live = [n for n in self.created if n not in self.to_erase]
        touched = live + [n for n, _, _ in self.arg_changes if n not in self.to_erase]
        for node in touched:
            for inp in node.all_input_nodes:
                if inp in self.to_erase:
                    raise ValidationError(f"{node.name} still reads {inp.name}, which the rewrite erases")
                if inp.graph is not self.graph:
                    raise ValidationError(f"{node.name} reads {inp.name} from another graph")
                if node.op != "output" and not inp < node:
                    raise ValidationError(f"{node.name} reads {inp.name} before it is defined")
        for node in self.to_erase:
            users = [u for u in node.users if u not in self.to_erase]
            if users:
                raise ValidationError(f"cannot erase {node.name}: still used by {', '.join(u.name for u in users)}")
        if any("val" in n.meta for n in self.graph.find_nodes(op="placeholder")):
            for node in live:
                if isinstance(node.target, torch._ops.OpOverload) and meta_value(node) is None:
                    raise ValidationError(f"{node.name} has no fake-tensor metadata ({node.target} could not be run "
                                          f"on the fake values of its inputs)")
        for old, new in self.replaced.items():
            vo, vn = meta_value(old), meta_value(new)
            if vo is not None and vn is not None and (vo.dtype != vn.dtype or len(vo.shape) != len(vn.shape)):
                raise ValidationError(f"{new.name if isinstance(new, fx.Node) else new} does not have the "
                                      f"dtype/rank of {old.name} it replaces")
        if self.strict or len(self.graph.nodes) <= FULL_LINT_LIMIT:
            self._lint()

    def _lint(self) -> None:
        try:
            self.graph.lint()
        except Exception as e:  # lint raises RuntimeError/AssertionError
            raise ValidationError(f"graph.lint() failed: {e}") from e

    def commit(self) -> None:
        for node in sorted(self.to_erase, reverse=True):  # users before what they use
            if node.users:
                raise ValidationError(f"cannot erase {node.name}: still used")
            self.graph.erase_node(node)

    def rollback(self) -> None:
        for node, args, kwargs in reversed(self.arg_changes):
            if not node._erased:
                node.args, node.kwargs = args, kwargs
        for node in reversed(self.created):
            if not node._erased:
                for user in list(node.users):  # only other created nodes can still use it
                    user.args, user.kwargs = (), {}
                self.graph.erase_node(node)
        for name in self.modules:
            delattr(self.root, name)
        self.created, self.arg_changes, self.to_erase, self.modules = [], [], [], []


def propagate_meta(node: fx.Node) -> None:
    """Compute ``meta['val']`` of a new node by running its target on the fake values of its
    inputs, under the fake mode they come from."""
    if node.op != "call_function":
        return
    vals = [meta_value(n) for n in node.all_input_nodes]
    fake_mode = next((getattr(v, "fake_mode", None) for v in vals if getattr(v, "fake_mode", None) is not None), None)
    if fake_mode is None:
        return
    try:
        with fake_mode:
            out = node.target(*fake_args(node.args), **fake_args(node.kwargs))
    except Exception:  # some targets cannot run on fake values; leave meta empty
        return
    key = "val" if any("val" in n.meta for n in node.all_input_nodes) else "example_value"
    node.meta[key] = out
