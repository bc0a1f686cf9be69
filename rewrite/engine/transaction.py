"""All-or-nothing graph edits: the one record of what a rewrite did.

Actions never touch the graph directly: they insert, rewire and erase through a
:class:`Transaction`, which keeps the undo log (created nodes, first arguments of every rewired
node, nodes to erase, submodules added).  Erasures are deferred to :meth:`commit`, so a rollback
only restores arguments and drops what was created.  The candidate's report (what was removed,
what was added) and the legality check both read this log; nothing else records effects.

``validate`` checks structure: inputs defined before use, nothing still reading an erased node,
no placeholder or output erased, no write erased unless a node the rewrite adds writes the same
memory, replacements of equal shape, dtype and device, fake-tensor metadata on every new ATen
node, and ``graph.lint()`` on small graphs (always under ``strict``).

A rule whose actions include Python registered by a user may edit the graph without the
transaction; for those the engine takes a :class:`Snapshot` first and restores it exactly, node
for node, when the rule fails.
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

import torch
import torch.fx as fx
from torch.fx.experimental.symbolic_shapes import statically_known_true

from rewrite.analysis.facts import mutation
from rewrite.analysis.facts import op_facts
from rewrite.analysis.facts.fake import fake_args, fake_mode_of, fake_of, fake_value, meta_key

FULL_LINT_LIMIT = 3000  # nodes; above this, validation checks only what the transaction touched


class ValidationError(RuntimeError):
    pass


_COPY_OR_VIEW = {True: "a copy", False: "a view", None: "of unknown aliasing"}


class Transaction:
    def __init__(self, root: fx.GraphModule, graph: fx.Graph, strict: bool = False,
                 on_new_node: Optional[Callable[[fx.Node], None]] = None):
        self.root, self.graph, self.strict = root, graph, strict
        self.created: List[fx.Node] = []
        self.old_args: Dict[fx.Node, Tuple[tuple, dict]] = {}   # first arguments of each rewired node
        self.old_meta: Dict[fx.Node, Any] = {}                  # fake values of views refreshed since
        self.old_eager: Dict[fx.Node, Any] = {}                 # eager_input_vals of calls rewired since
        self.to_erase: List[fx.Node] = []
        self.modules: List[str] = []
        self.replaced: Dict[fx.Node, Any] = {}                   # node -> what its uses now read
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

    def _remember(self, node: fx.Node) -> None:
        if node not in self.old_args and node not in self.created:
            self.old_args[node] = (node.args, dict(node.kwargs))

    def set_args(self, node: fx.Node, args: tuple, kwargs: Optional[dict] = None) -> None:
        self._remember(node)
        node.args = tuple(args)
        if kwargs is not None:
            node.kwargs = dict(kwargs)
        self._refresh_views(node)

    def _refresh_views(self, node: fx.Node) -> None:
        """A view now taken of another tensor (the scatter a rule replaced by the input itself):
        its fake value, and those of the views taken of it, describe the old tensor's memory
        (storage offset, strides), which analyses read as the view's place in memory.  Compute
        them again from the new operands; rollback puts the old ones back."""
        self._refresh_eager_input_vals(node)
        key = meta_key(self.graph)
        stack, seen = [node], set()
        while stack:
            n = stack.pop()
            if n in seen or n.op != "call_function" or not (op_facts.is_view_node(n) or op_facts.is_view_list_node(n)):
                continue
            seen.add(n)
            if n not in self.old_meta and n not in self.created:
                self.old_meta[n] = n.meta.get(key)
            propagate_meta(n)
            # a `reshape` that copied is refreshed too: the new layout may make it a view,
            # which validation refuses (``_check_view_or_copy_kept``)
            # a view list's (``split``) value is refreshed before its items
            stack.extend(u for u in n.users if op_facts.alias_source(u) is n
                         or (op_facts.is_view_list_node(u) and u.args and u.args[0] is n)
                         or (op_facts.is_view_list_node(n) and op_facts.is_getitem(u))
                         or (op_facts.is_op_overload(u.target) and op_facts.view_or_copy(u.target)
                             and u.args and u.args[0] is n))

    def _refresh_eager_input_vals(self, node: fx.Node) -> None:
        """A functionalized call keeps the example values of its arguments as traced
        (``meta["eager_input_vals"]``), and Inductor's decomposition of it traces with them:
        where a rewrite passes it another tensor (a copy of an input at another storage offset),
        the stale values baked the input's offset into the copy's clone (fuzz program 1557:
        "setStorage ... out of bounds").  An argument the rewrite put there gets its own value."""
        if "eager_input_vals" not in node.meta or node not in self.old_args:
            return
        import torch.utils._pytree as pytree

        if node not in self.old_eager:
            self.old_eager[node] = node.meta["eager_input_vals"]
        old_args, old_kwargs = self.old_args[node]
        known: Dict[fx.Node, Any] = {}

        def record(n, val):
            if isinstance(n, fx.Node):
                known[n] = val

        try:
            pytree.tree_map(record, (tuple(old_args), dict(old_kwargs)), self.old_eager[node])
        except Exception:  # noqa: BLE001 - another structure: every argument gets its own value
            known = {}
        node.meta["eager_input_vals"] = fx.map_arg((tuple(node.args), dict(node.kwargs)),
                                                   lambda n: known[n] if n in known else n.meta.get("val"))

    def replace_uses(self, old: fx.Node, new: Any, where: Optional[Callable[[fx.Node], bool]] = None) -> None:
        for user in list(old.users):
            if user is new or (where is not None and not where(user)):
                continue
            self._remember(user)
            user.replace_input_with(old, new)
            self._refresh_views(user)
        self.replaced[old] = new

    def replace_reads(self, user: fx.Node, old: fx.Node, new: fx.Node) -> None:
        """``user`` reads ``new`` where it read ``old``; where it writes ``old`` (an ATen op's
        ``(a!)`` argument), it still does."""
        written = op_facts.written_arguments(user.target) if user.op == "call_function" else (frozenset(), frozenset())
        if not written[0] and user.op in ("call_function", "call_method") and old in mutation.written_operands(user):
            written = (frozenset({0}), frozenset({"self"}))    # Dynamo spelling of an in-place op: writes its first
        if not written[0]:
            self._remember(user)
            user.replace_input_with(old, new)
            self._refresh_views(user)
            return

        def swap(value):
            if value is old:
                return new
            if isinstance(value, (list, tuple)):
                return type(value)(swap(v) for v in value)
            return value

        self.set_args(user, *op_facts.map_read_arguments(user, swap, written))

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

    # ------------------------------------------------------------------ queries

    def live_created(self) -> List[fx.Node]:
        return [n for n in self.created if n not in self.to_erase and not n._erased]

    def writes_created(self) -> List[fx.Node]:
        return [n for n in self.live_created() if op_facts.written_nodes(n)]

    # ------------------------------------------------------------------ end

    def validate(self) -> None:
        live = self.live_created()
        touched = live + [n for n in self.old_args if n not in self.to_erase]
        for node in touched:
            for inp in node.all_input_nodes:
                if inp in self.to_erase:
                    raise ValidationError(f"{node.name} still reads {inp.name}, which the rewrite erases")
                if inp.graph is not self.graph:
                    raise ValidationError(f"{node.name} reads {inp.name} from another graph")
                if node.op != "output" and not inp < node:
                    raise ValidationError(f"{node.name} reads {inp.name} before it is defined")
        kept_writes = None
        for node in self.to_erase:
            if node.op in ("placeholder", "output"):
                raise ValidationError(f"cannot erase {node.op} {node.name}")
            written = {_alias_root(w) for w in op_facts.written_nodes(node)}
            if op_facts.is_copy_target(node.target) and node.args[0] is node.args[1]:
                written = set()                      # copy_(x, x) writes nothing new
            if written:
                if kept_writes is None:
                    kept_writes = {_alias_root(w) for n in live for w in op_facts.written_nodes(n)}
                lost = written - kept_writes
                if lost:
                    raise ValidationError(f"cannot erase {node.name}: it writes {', '.join(sorted(n.name for n in lost))} "
                                          f"and no node the rewrite adds takes that write over")
            users = [u for u in node.users if u not in self.to_erase]
            if users:
                raise ValidationError(f"cannot erase {node.name}: still used by {', '.join(u.name for u in users)}")
        # no composite whose result may be its input is created, nor rewired (its fake value,
        # which says whether it is its input, would be stale)
        for node in live + [n for n in self.old_args if not n._erased and n not in self.to_erase]:
            hidden = op_facts.hidden_alias(node.target) if op_facts.is_op_overload(node.target) else None
            if hidden is not None:
                raise ValidationError(f"{node.name}: {hidden}")
        if any(fake_of(n) is not None for n in self.graph.find_nodes(op="placeholder")):
            for node in live:
                if isinstance(node.target, torch._ops.OpOverload) and fake_of(node) is None \
                        and node.target._schema.returns:          # an op that returns nothing has none
                    raise ValidationError(f"{node.name} has no fake-tensor metadata ({node.target} could not be run "
                                          f"on the fake values of its inputs)")
        for old, new in self.replaced.items():
            check_replacement(old, new)
        self._check_view_or_copy_kept()
        if self.strict or len(self.graph.nodes) <= FULL_LINT_LIMIT:
            self._lint()

    def _check_view_or_copy_kept(self) -> None:
        """A rewired ``reshape`` (or another op that is a view or a copy by its operand's layout,
        ``op_facts.view_or_copy``) must stay what it was: the analyses read the graph before
        the rewrite through the call's fake value as it is now."""
        for node, old_val in self.old_meta.items():
            if node._erased or node in self.to_erase or not op_facts.is_op_overload(node.target) \
                    or not op_facts.view_or_copy(node.target) or not node.args:
                continue
            old_args = self.old_args.get(node, (node.args, node.kwargs))[0]
            old_source = old_args[0] if old_args else None
            if not isinstance(old_source, fx.Node):
                continue
            old_source_val = self.old_meta[old_source] if old_source in self.old_meta else fake_value(old_source)
            same_before = op_facts.shares_storage(old_val, old_source_val)
            before = None if same_before is None else not same_before
            after = op_facts.copies_its_source(node, node.args[0])
            if before != after:
                raise ValidationError(f"{node.name} ({node.target}) would be {_COPY_OR_VIEW[after]} of its operand, "
                                      f"where it was {_COPY_OR_VIEW[before]}: its result aliases by its operand's "
                                      f"layout")

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
        for node, (args, kwargs) in self.old_args.items():
            if not node._erased:
                node.args, node.kwargs = args, kwargs
        key = meta_key(self.graph)
        for node, val in self.old_meta.items():
            if val is None:
                node.meta.pop(key, None)
            else:
                node.meta[key] = val
        for node, val in self.old_eager.items():
            node.meta["eager_input_vals"] = val
        for node in reversed(self.created):
            if not node._erased:
                for user in list(node.users):  # only other created nodes can still use it
                    user.args, user.kwargs = (), {}
                self.graph.erase_node(node)
        for name in self.modules:
            if hasattr(self.root, name):
                delattr(self.root, name)
        self.created, self.old_args, self.to_erase, self.modules, self.replaced = [], {}, [], [], {}
        self.old_meta, self.old_eager = {}, {}


def _alias_root(node: fx.Node) -> fx.Node:
    """The tensor whose memory ``node`` is a view of (itself when it is not a view)."""
    seen = set()
    while node not in seen:
        seen.add(node)
        source = op_facts.alias_source(node)
        if source is None:
            break
        node = source
    return node


def check_replacement(old: fx.Node, new: Any) -> None:
    """``new`` may take ``old``'s place: a node of the same shape (symbolically), dtype and device;
    for an op with several results (a tuple), each of ``old``'s results alike (``new`` may return
    more after them: a rewritten ``cond`` returns the state its branches wrote)."""
    if not isinstance(new, fx.Node):
        raise ValidationError(f"{old.name} would be replaced by the constant {new!r}; only a node can replace a node")
    vo, vn = fake_of(old), fake_of(new)
    if vo is None or vn is None:        # no example value (a node built without one): nothing to compare
        return
    if isinstance(vo, (tuple, list)) or isinstance(vn, (tuple, list)):
        if not isinstance(vo, (tuple, list)) or not isinstance(vn, (tuple, list)) or len(vn) < len(vo):
            raise ValidationError(f"{new.name} cannot replace {old.name}: it returns fewer results")
        for k, (a, b) in enumerate(zip(vo, vn)):
            _check_same_tensor(a, b, f"{new.name}[{k}]", f"{old.name}[{k}]")
        return
    _check_same_tensor(vo, vn, new.name, old.name)


def _check_same_tensor(vo, vn, new_name: str, old_name: str) -> None:
    if not isinstance(vo, torch.Tensor) or not isinstance(vn, torch.Tensor):
        return
    same_shape = len(vo.shape) == len(vn.shape) and all(statically_known_true(a == b) for a, b in zip(vo.shape, vn.shape))
    if not same_shape or vo.dtype != vn.dtype or vo.device != vn.device:
        raise ValidationError(f"{new_name} ({vn.dtype}{list(vn.shape)} on {vn.device}) cannot replace {old_name} "
                              f"({vo.dtype}{list(vo.shape)} on {vo.device})")


def propagate_meta(node: fx.Node) -> None:
    """Compute the fake value of a new node by running its target on the fake values of its
    inputs, under the fake mode they come from."""
    if node.op != "call_function":
        return
    vals = [fake_of(n) for n in node.all_input_nodes]      # a view list's is a list
    fake_mode = next((fake_mode_of(v) for v in vals if fake_mode_of(v) is not None), None)
    if fake_mode is None:
        return
    try:
        with fake_mode:
            out = node.target(*fake_args(node.args), **fake_args(node.kwargs))
    except Exception:  # noqa: BLE001 - some targets cannot run on fake values; validate reports it
        return
    node.meta[meta_key(node.graph)] = out


# --------------------------------------------------------------------------- snapshots


class Snapshot:
    """An exact copy of a graph's structure (and its owning module's submodules), to restore
    after Python code edited the graph behind the transaction's back."""

    def __init__(self, root: fx.GraphModule, graph: fx.Graph):
        self.root, self.graph = root, graph
        self.copy = fx.Graph()
        self.copy.output(self.copy.graph_copy(graph, {}))
        self.fingerprint = fingerprint(graph)
        self.modules = set(dict(root.named_children())) if root is not None else set()

    def matches(self) -> bool:
        return fingerprint(self.graph) == self.fingerprint

    def restore(self) -> None:
        """Put the graph back exactly as it was (new node objects, same structure and names)."""
        for node in reversed(list(self.graph.nodes)):
            node.args, node.kwargs = (), {}
        for node in reversed(list(self.graph.nodes)):
            self.graph.erase_node(node)
        # the erased nodes' names are still taken: free them, so that the copies get them back
        self.graph._graph_namespace = type(self.graph._graph_namespace)()
        self.graph.output(self.graph.graph_copy(self.copy, {}))
        if self.root is not None:
            for name in set(dict(self.root.named_children())) - self.modules:
                delattr(self.root, name)


def fingerprint(graph: fx.Graph) -> int:
    """Structure of the graph: node names, ops, targets and arguments, in order."""
    def shape(a):
        if isinstance(a, fx.Node):
            return ("%", a.name)
        if isinstance(a, (list, tuple)):
            return tuple(shape(x) for x in a)
        if isinstance(a, dict):
            return tuple((k, shape(v)) for k, v in a.items())
        return repr(a)

    return hash(tuple((n.name, n.op, str(n.target), shape(n.args), shape(n.kwargs)) for n in graph.nodes))
