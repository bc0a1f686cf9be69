"""The independent legality check under every rewrite.

A transaction may add, remove or move writes.  Whatever rule or pass proposed it, it is kept only
if the graph after it

1. computes the same values as before: every output and the final content of every graph input
   are the same terms (:mod:`rewrite.analysis.semantics`, FX order), and
2. stays right once Inductor lowers it: no write whose memory a lazily computed value reads at
   other positions inside the write's loop or across it (:mod:`rewrite.analysis.inductor.lowering`).

It trusts nothing the rule says: not its ``safe`` section, not the action's description of
itself.  Writes present when the pass started (AOTAutograd's copy-back epilogue) are read
*functionally* on the "before" side: a read of an input after such a write still means the
input's original value, which is what the program meant even where an earlier pass reordered
the graph (pytorch issue 198131).
"""
from __future__ import annotations

from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

import torch.fx as fx

from rewrite.analysis.semantics import layout_maps as lm
from rewrite.analysis.facts import op_facts
from rewrite.analysis.inductor.lowering import Hazard, LoweringModel
from rewrite.analysis.inductor.outputs import aliasing_change, output_node, tensor_items
from rewrite.analysis.semantics.aliases import AliasIndex
from rewrite.analysis.semantics.comparison import Comparison
from rewrite.analysis.semantics.evaluation import GraphView
from rewrite.analysis.semantics.terms import Terms
from rewrite.analysis.facts.verdict import Verdict, no, yes


class Legality:
    """Legality checks for one graph during one pass."""

    def __init__(self, graph: fx.Graph, materialized: Optional[Dict] = None,
                 deferred_writes: Iterable[fx.Node] = (), subgraph: bool = False, lowered: bool = True):
        """``lowered=False``: the graph runs op by op after the pass (the eager base): only the
        values are checked, there is no lowering to be safe for."""
        self.graph = graph
        self.index = AliasIndex(graph)
        self.terms = Terms()
        self.lowering = LoweringModel(graph, materialized, lowered=lowered)
        self.deferred: Set[fx.Node] = set(deferred_writes)
        self.enabled = True
        #: the nodes whose arguments are storage addresses (few or none): what
        #: ``functional_reading_not_the_programs`` asks about, after every change
        self.storage_addressed: List[fx.Node] = [n for n in graph.nodes if lm.storage_addressed_operands(n)]
        #: the graph is a higher-order op's function: its inputs are operands (loop state...), not
        #: the caller's tensors (``functional_reading_not_the_programs``)
        self.subgraph = subgraph

    @classmethod
    def for_graph(cls, graph: fx.Graph, materialized: Optional[Dict] = None) -> "Legality":
        """A checker whose functional reading covers the writes the graph has now."""
        writes = [n for n in graph.nodes if n.op == "call_function" and op_facts.written_nodes(n)]
        return cls(graph, materialized, writes)

    def note_new_node(self, node: fx.Node) -> None:
        self.index.add(node)
        if lm.storage_addressed_operands(node):
            self.storage_addressed.append(node)
        self.lowering.note_new_node(node)

    def note_committed(self, rewired: Iterable[fx.Node]) -> None:
        rewired = list(rewired)
        self.index.changed(rewired)
        self.lowering.forget(AliasIndex._with_views(n for n in rewired if not n._erased))

    def note_rolled_back(self, rewired: Iterable[fx.Node]) -> None:
        """A checked transaction was undone: what was derived from its arguments is stale."""
        alive = [n for n in rewired if not n._erased]
        self.index.changed(alive)
        self.lowering.forget(AliasIndex._with_views(alive))

    def check(self, created: Sequence[fx.Node], erased: Sequence[fx.Node],
              old_args: Dict[fx.Node, Tuple[tuple, dict]]) -> Verdict:
        """Is the graph with ``created`` nodes, without ``erased`` ones and with the arguments
        changed from ``old_args`` equivalent to the graph before, and safe to lower?"""
        if not self.enabled:
            return yes("legality check disabled")
        created, erased = list(created), [n for n in erased if n not in created]
        changed = set(created) | set(erased) | set(old_args)
        if not changed:
            return yes()
        ambiguous = storage_addressed_scatter_change(created, erased, old_args)
        if ambiguous:
            return no(ambiguous)
        unreadable = self.functional_reading_differs(created, erased)
        if unreadable:
            return no(f"after the change, {unreadable}: the functional graph would not say what the program does")
        self.index.pending(old_args)
        self.lowering.forget(AliasIndex._with_views(n for n in old_args if not n._erased))
        before = GraphView("before", absent=set(created), old_args=dict(old_args), deferred=self.deferred)
        after = GraphView("after", absent=set(erased))
        divergence = Comparison(before, after, changed, self.index, self.terms).run()
        if divergence is not None:
            return no(divergence.message)
        aliasing = self.output_aliasing_change(before, after)
        if aliasing:
            return no(aliasing)
        hazards = self.hazards_near(created, erased, old_args)
        if hazards:
            return no(hazards[0].describe())
        return yes()

    def functional_reading_differs(self, created: Sequence[fx.Node] = (), erased: Sequence[fx.Node] = ()) -> str:
        """``functional_reading_not_the_programs`` of the graph (with ``created`` nodes, without
        ``erased`` ones), asked of the storage-addressing nodes this checker keeps."""
        nodes = [n for n in self.storage_addressed + list(created) if n not in erased]
        return functional_reading_not_the_programs(self.graph, nodes, subgraph=self.subgraph)

    def output_aliasing_change(self, before: GraphView, after: GraphView) -> str:
        """Why the outputs would share memory differently ("" when they do not): equal values
        are not enough where the caller sees storage.  An output that was a tensor of its own
        must not become the memory of an input (the caller's result would alias its argument;
        in the subgraph of a higher-order op the branches' results could not even be merged),
        nor share memory with another output, and one that aliased an input must keep aliasing
        it (AOTAutograd regenerates such outputs as views of that input)."""
        output = output_node(self.graph)
        if output is None:
            return ""
        items_before = tensor_items(before.args(output)[0])
        items_after = tensor_items(after.args(output)[0])     # (the view's arguments, not the graph's)
        if len(items_before) != len(items_after):
            return ""            # the values check compared them; nothing to pair up
        roots_before = [self.index.root(a, before) for a in items_before]
        roots_after = [self.index.root(a, after) for a in items_after]
        return aliasing_change(roots_before, roots_after, self.graph)

    def hazards_near(self, created, erased, old_args) -> Sequence[Hazard]:
        """Lowering hazards of the writes the transaction creates or whose memory it touches."""
        erased = set(erased)
        touched_roots = set()
        for n in list(created) + list(erased) + list(old_args):
            for dst in op_facts.written_nodes(n):
                touched_roots.add(self.index.root(dst))
            if op_facts.alias_source(n) is not None:
                touched_roots.add(self.index.root(n))
        writes = [n for n in created if op_facts.written_nodes(n)]
        for root in touched_roots:
            writes.extend(w for w in self.index.writers(root) if w not in erased)
        live = [w for w in dict.fromkeys(writes) if w not in erased and not w._erased]
        return self.lowering.hazards(live, absent=erased)


def functional_reading_not_the_programs(graph: fx.Graph, candidates: Optional[Iterable[fx.Node]] = None,
                                       subgraph: bool = False) -> str:
    """Why this graph's functional reading is not what its program computes ("" when it is):
    a node that addresses storage the program does not (``layout_maps.functional_reading_differs``).
    The values check reads graphs functionally, so it cannot judge any rewrite of such a graph;
    what makes it right is Inductor's reinplacing of the whole chain, which a rewrite anywhere in
    the graph may change (a new late reader of the input stops it).  Such a graph is left to
    Inductor as it is.  ``candidates``: the nodes to ask about, when the caller keeps them (all
    of the graph's by default); ``subgraph``: the graph is a higher-order op's function, whose
    inputs may be the program's memory though the function does not write them (fuzz p3577: a
    ``while_loop`` state that the loop as a whole writes)."""
    for node in (graph.nodes if candidates is None else candidates):
        if node._erased:
            continue
        why = lm.functional_reading_differs(node, inputs_are_operands=subgraph)
        if why:
            return why
    return ""


def functions_address_fresh_operands(gm: fx.GraphModule) -> str:
    """Why a higher-order op of ``gm``'s graph cannot run as the program did ("" when it can): one
    of its functions addresses an operand's storage (the program's ``x.as_strided`` of it, as a
    functional ``as_strided_scatter`` or written in place by the rules on the function), and the
    call passes a fresh value standing for an input's memory laid out otherwise
    (``layout_maps.operand_reading_differs``).  What the branch
    addresses is then elements of a copy, not of the input (fuzz seed 199 p654: a branch's
    ``x0.as_strided((4,), (1,), 1)`` of a strided input that a rewritten ``while_loop`` updated
    before the ``cond``; its write reached storage between ``x0``'s elements)."""
    for call in gm.graph.nodes:
        if call.op != "call_function":
            continue
        functions = op_facts.called_functions(gm, call)
        if not any(lm.storage_addressed_operands(n) for f in functions for n in f.graph.nodes):
            continue
        for value in call.all_input_nodes:
            why = lm.operand_reading_differs(call, value) if value.op != "get_attr" else ""
            if why:
                return f"`{call.name}`: one of its functions addresses an operand's storage (as_strided), and {why}"
    return ""


def storage_addressed_scatter_change(created, erased, old_args) -> str:
    """Why a change cannot be judged ("" when it can): it creates, erases or gives another base
    (or other addresses) to an ``as_strided_scatter`` whose functional reading is not what the
    program does (``layout_maps.scatter_addresses_a_copy``).  The values check reads the graph
    functionally, so it would accept a private copy of such a scatter's base, which moves the
    write to other elements (the source it scatters may change: that reads the same either way)."""
    def describe(n):
        return (f"`{n.name}` (aten.as_strided_scatter) addresses a copy of its base, which does not start its "
                f"storage or is not dense, where the program's as_strided addresses the base's own storage: "
                f"the functional graph does not say what the program writes, so no rewrite may move it")

    for n in list(created) + list(erased):
        if lm.scatter_addresses_a_copy(n):
            return describe(n)
    for n, (args, kwargs) in old_args.items():
        if n._erased or not lm.is_as_strided_scatter(n):
            continue
        if not (lm.scatter_addresses_a_copy(n) or lm.scatter_addresses_a_copy(n, args[0] if args else None)):
            continue
        if (args[:1], args[2:], kwargs) != (n.args[:1], n.args[2:], n.kwargs):
            return describe(n)
    return ""











