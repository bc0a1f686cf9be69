"""Which memory every node's value lives in: its alias root (through views and in-place results),
the element map from the root, and the writes into each root, kept current as transactions
rewire the graph (:class:`AliasIndex`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, Iterable, List, Optional, Set, Tuple

import torch.fx as fx

from rewrite.analysis.semantics import layout_maps as lm
from rewrite.analysis.facts import op_facts


# --------------------------------------------------------------------------- roots and aliases


class AliasIndex:
    """For every node: the node owning its memory (its root) and its view steps from it; for
    every root: its aliases and the nodes that write them, in graph order.  Built on first use
    and kept current through :meth:`add` (new nodes) and :meth:`changed` (rewired nodes)."""

    def __init__(self, graph: fx.Graph):
        self.graph = graph
        self._chain: Dict[fx.Node, Tuple[fx.Node, Tuple[fx.Node, ...]]] = {}
        self._aliases: Dict[fx.Node, List[fx.Node]] = {}
        self._writers: Dict[fx.Node, List[fx.Node]] = {}
        self._maps: Dict[Tuple[fx.Node, Tuple[fx.Node, ...]], Optional[lm.Map]] = {}
        self._member: Dict[fx.Node, Set[fx.Node]] = {}    # node -> the roots whose alias lists hold it
        self._writer_of: Dict[fx.Node, Set[fx.Node]] = {}  # writer -> the roots whose writer lists hold it
        self._built = False

    def _build(self) -> None:
        if self._built:
            return
        self._built = True
        for node in self.graph.nodes:
            self.add(node)

    def add(self, node: fx.Node) -> None:
        if not self._built:
            return
        root, _ = self.chain(node)
        self._join(node, root)
        self._writers.pop(root, None)
        for dst in op_facts.written_nodes(node):
            self._writers.pop(self.root(dst), None)

    def _join(self, node: fx.Node, root: fx.Node) -> None:
        roots = self._member.setdefault(node, set())
        if root not in roots:
            roots.add(root)
            self._aliases.setdefault(root, []).append(node)

    @staticmethod
    def _with_views(nodes: Iterable[fx.Node]) -> Set[fx.Node]:
        """``nodes`` and every node that is a view of one of them, transitively."""
        out: Set[fx.Node] = set()
        stack = list(nodes)
        while stack:
            n = stack.pop()
            if n in out:
                continue
            out.add(n)
            stack.extend(op_facts.direct_views(n))
            # a rewired list op (``split``): its items' chains followed its old operand
            if op_facts.is_view_list_node(n):
                stack.extend(g for g in n.users if op_facts.is_getitem(g))
        return out

    def changed(self, nodes: Iterable[fx.Node]) -> None:
        """``nodes`` were rewired (a transaction committed or rolled back): forget what was
        derived from their old arguments."""
        stale = self._with_views(nodes)
        for n in stale:
            self._chain.pop(n, None)
        if self._built:                       # updated in place: a rebuild per rewrite is quadratic
            for n in stale:
                for root in self._member.pop(n, ()):
                    self._writers.pop(root, None)
                    members = self._aliases.get(root)
                    if members is not None and n in members:
                        members.remove(n)
                if not n._erased:
                    self._join(n, self.chain(n)[0])
            self._forget_writers(stale)

    def pending(self, rewired: Iterable[fx.Node]) -> None:
        """A transaction rewired ``rewired`` and is being checked: chains are recomputed for the
        graph as it is now (the after view), and each rewired view also counts as an alias of
        its new root, beside its old one (so readers of both are looked at).  The engine calls
        :meth:`changed` when the transaction commits or rolls back."""
        stale = self._with_views(rewired)
        for n in stale:
            self._chain.pop(n, None)
        if self._built:
            for n in stale:
                self._join(n, self.root(n))
            self._forget_writers(stale)

    def _forget_writers(self, nodes: Iterable[fx.Node]) -> None:
        """Drop the writer lists that ``nodes`` are in, or would be in now, or whose alias
        lists they joined or left."""
        for n in nodes:
            for root in self._writer_of.pop(n, ()):
                self._writers.pop(root, None)
            for root in self._member.get(n, ()):
                self._writers.pop(root, None)
            if not n._erased:
                for dst in op_facts.written_nodes(n):
                    self._writers.pop(self.root(dst), None)

    def chain(self, node: fx.Node, view: Optional["GraphView"] = None) -> Tuple[fx.Node, Tuple[fx.Node, ...]]:
        """``(root, steps)`` of ``node``, as it is in ``view`` (default: the graph as it is)."""
        if view is None or not view.old_args:
            got = self._chain.get(node)
            if got is None:
                got = lm.chain_to(node)
                self._chain[node] = got
            return got
        steps = []
        n = node
        while True:
            args = view.args(n)[0]
            source = op_facts.alias_source(n, args)
            if source is None:
                return n, tuple(reversed(steps))
            if op_facts.is_getitem(n):              # an item of a view list views what the list
                source = view.args(args[0])[0][0]   # op read in this view, not in the graph now
            steps.append(n)
            n = source

    def root(self, node: fx.Node, view: Optional["GraphView"] = None) -> fx.Node:
        return self.chain(node, view)[0]

    def map(self, node: fx.Node, view: Optional["GraphView"] = None) -> Optional[lm.Map]:
        key = self.chain(node, view)
        if key not in self._maps:
            self._maps[key] = lm.map_from_root(*key)
        return self._maps[key]

    def aliases(self, root: fx.Node) -> List[fx.Node]:
        self._build()
        return [n for n in self._aliases.get(root, [root]) if not n._erased]

    def writers(self, root: fx.Node) -> List[fx.Node]:
        """Nodes writing memory of ``root``, in graph order (to-be-erased ones included: a
        transaction erases only at commit)."""
        self._build()
        got = self._writers.get(root)
        if got is None:
            found = set()
            for alias in self._aliases.get(root, [root]):
                for user in alias.users:
                    if alias in op_facts.written_nodes(user):
                        found.add(user)
            got = sorted(found)
            self._writers[root] = got
            for w in got:
                self._writer_of.setdefault(w, set()).add(root)
        elif any(w._erased for w in got):              # a rolled-back (or erased) writer
            got = self._writers[root] = [w for w in got if not w._erased]
        return got


@dataclass
class GraphView:
    """The graph before or after a transaction, over the same node list: which nodes exist and
    which arguments they have."""

    name: str
    absent: Set[fx.Node] = field(default_factory=set)           # nodes this view does not have
    old_args: Dict[fx.Node, Tuple[tuple, dict]] = field(default_factory=dict)
    deferred: Set[fx.Node] = field(default_factory=set)          # writes that take effect only
    #                                                              at the end (functional reading)

    def has(self, node: fx.Node) -> bool:
        return node not in self.absent

    def args(self, node: fx.Node) -> Tuple[tuple, dict]:
        got = self.old_args.get(node)
        return got if got is not None else (node.args, node.kwargs)


# --------------------------------------------------------------------------- inputs


def shared_inputs(graph: fx.Graph) -> str:
    """Why two inputs of a higher-order op's function may share memory while the function
    writes one of them ("" when not, as far as their fake values tell): the op got views of one
    tensor as two operands (a ``cond`` over ``x`` and ``x[0]``, regenerated from one base by
    ``auto_functionalized_v2``), and Inductor hands the function to the post-grad passes as a graph
    of its own, whose inputs' fake values share one storage.  The values check reads each input
    as memory of its own, so it cannot judge a rewrite that moves a write through one past an
    access through the other (fuzz seed 43 p217: a branch writes ``x[2]`` and then ``x[0]``
    through the other operand; privatizing the first write copied ``x`` back after the second).
    Inputs of the compiled graph itself (AOTAutograd's, with descriptors) are not asked: views
    among them are its business (a synthetic base), and read-only ones change nothing."""
    for group in shared_input_groups(graph):
        return (f"inputs `{group[0].name}` and `{group[1].name}` of a higher-order op's function share memory "
                f"and it writes one of them, where the values check reads each as memory of its own")
    return ""


def shared_input_groups(graph: fx.Graph) -> List[List[fx.Node]]:
    """The inputs of a higher-order op's function that share one memory, in groups of two or
    more, where the function writes one of the group (see :func:`shared_inputs`)."""
    groups: Dict[object, List[fx.Node]] = {}
    for node in graph.find_nodes(op="placeholder"):
        key = None if lm.is_callers_input(node) else lm.owner_storage(node)
        if key is not None:
            groups.setdefault(key, []).append(node)
    return [g for g in groups.values() if len(g) > 1 and any(lm.writer_of(n) is not None for n in g)]
