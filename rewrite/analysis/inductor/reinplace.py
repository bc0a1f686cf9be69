"""What Inductor's own reinplacing pass will do to a post-grad graph, found by running it on a
copy, and whether the result is still right.

Inductor runs ``reinplace_inplaceable_ops`` after every custom post-grad pass, ours included,
and nothing lets a backend turn it off.  It turns view scatters, indexed updates and foreach ops
into in-place writes when their base has no later reader, without asking whether the source
still reads what the write changes (pytorch issue 197829) or whether the write lands in memory
whose old value is still observed (issue 198094).  So the rules must know its decisions before
it makes them: :class:`InductorReinplace` runs the pass on a copy of the graph as it is now,
maps every decision back to the node it concerns, and judges the copy it leaves with the same
legality check as every rewrite (values, then lowering hazards).  Repair rules
(``rules/inductor.rules``) then act on the original nodes.
"""
from __future__ import annotations

import contextlib
import functools
from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional, Set

import torch
import torch.fx as fx
from torch._prims_common import is_non_overlapping_and_dense_or_false
from torch._inductor.fx_passes import reinplace as passes
from torch._inductor.fx_utils import FakeTensorUpdater
from torch.fx._lazy_graph_module import _make_graph_module, _use_lazy_graph_module
from torch._inductor.virtualized import NullHandler, V

from rewrite.analysis.semantics import layout_maps as lm
from rewrite.analysis.facts import functionalized, op_facts
from rewrite.analysis.inductor import fake_refresh, functionalized_calls
from rewrite.analysis.inductor.copies import copies
from rewrite.analysis.facts.fake import fake_value, graph_fake_mode
from rewrite.analysis.inductor.outputs import aliasing_change, output_items, output_roles, output_tensors, tensor_output_roles
from rewrite.analysis.inductor.lowering import LoweringModel
from rewrite.analysis.semantics.terms import Terms
from rewrite.analysis.semantics.comparison import observe_graph


@dataclass
class Decision:
    node: fx.Node                          # the original node Inductor would write in place
    unsafe: str = ""                       # why the result would be wrong ("" when it is right)
    reads_own_source: bool = False         # the only trouble: its write reads its own source
    #                                        (the scattered values) inside its loop
    unproven: str = ""                     # what the judge could not prove about a write into a
    #                                        private copy (safe by construction: see _judge)
    in_place: tuple = ()                   # a functionalized call: the written arguments (v1
    #                                        names) or bases (v2 indices) it would write in place
    late_reads: tuple = ()                 # a functionalized call: original values read before
    #                                        it that Inductor would compute after it (``_read_late_by_inductor``)


@dataclass
class Simulation:
    decisions: Dict[fx.Node, Decision] = field(default_factory=dict)
    error: str = ""                        # the pass could not be simulated
    final_copies: List = field(default_factory=list)   # copies in the graph the pass leaves
    copy_backs_read_inside: Dict[fx.Node, str] = field(default_factory=dict)
    #                                        original copy-backs into inputs whose lazily computed
    #                                        source, after the pass, reads the memory the copy
    #                                        writes at other positions inside its loop (why)
    outputs_into_inputs: Dict[fx.Node, str] = field(default_factory=dict)
    #                                        decisions whose in-place write would make an output
    #                                        AOTAutograd returns as a tensor of its own an input's
    #                                        memory (why); judged however the graph reads
    _judge: Optional[Callable[[], None]] = None         # marks unsafe decisions; run on first need

    @property
    def judged(self) -> bool:
        return self._judge is None

    def judge(self) -> "Simulation":
        """Decide which decisions would make the program wrong (the costly part: comparing the
        whole graph before and after the simulated pass), once, when first asked."""
        if self._judge is not None:
            judge, self._judge = self._judge, None
            judge()
        return self

    def unsafe(self) -> List[Decision]:
        self.judge()
        return [d for d in self.decisions.values() if d.unsafe]


def candidates(graph: fx.Graph) -> List[fx.Node]:
    """Nodes Inductor's pass considers: view scatters, its in-placeable ops and functionalized
    calls (``auto_functionalized`` v1 and v2)."""
    known = set(passes.inplaceable_ops) | set(passes.inplaceable_foreach_ops)
    return [n for n in graph.nodes if n.op == "call_function"
            and (op_facts.is_view_scatter(n) or n.target in known or functionalized_calls.is_call(n))]


@contextlib.contextmanager
def _inductor_fake_mode(graph: fx.Graph):
    """Inductor's passes read the fake mode from ``V``; set it when no compile set it."""
    if not isinstance(V.get_fake_mode(), NullHandler):
        yield
        return
    with V.set_fake_mode(graph_fake_mode(graph)):
        yield


def simulate(gm: fx.GraphModule, graph: fx.Graph, materialized: Optional[Dict] = None,
             lowered: bool = True) -> Simulation:
    """Run Inductor's reinplacing on a copy of ``graph`` and judge what it did (``lowered=False``:
    the graph runs op by op after it, the eager base; its values only are judged)."""
    if not candidates(graph):
        return Simulation(final_copies=copies(graph))
    copy_graph = fx.Graph()
    val_map: Dict[fx.Node, fx.Node] = {}
    out = copy_graph.graph_copy(graph, val_map)
    copy_graph.output(out)
    with _use_lazy_graph_module(True):      # its Python code is never run: not generated
        copy_gm = _make_graph_module(gm, copy_graph)
    original_of = {c: o for o, c in val_map.items()}
    scatter_users = {c: list(c.users) for o, c in val_map.items() if op_facts.is_view_scatter(c)}
    signatures = {c: _scatter_signature(c) for c in scatter_users}
    sim = Simulation()
    try:
        with _inductor_fake_mode(graph):
            updater = FakeTensorUpdater(copy_gm)
            arguments = fake_refresh.arguments(copy_graph, replaced=op_facts.is_view_scatter)
            passes.canonicalize_view_scatter_ops(copy_graph)
            generalized = _map_generalized(scatter_users, original_of, signatures, copy_graph)
            fake_refresh.reuse_replaced_values(updater, arguments,
                                               fresh=lambda n: n.target is passes._generalized_scatter,
                                               replaced_fresh=op_facts.is_view_scatter)
            fake_refresh.refresh(updater)
            targets_before = {c: c.target for c in copy_graph.nodes}
            passes.reinplace_inplaceable_ops_core(copy_graph)
            writes_of: Dict[fx.Node, Set[fx.Node]] = {}
            for g, originals in generalized.items():
                if not g._erased and g.target is passes._inplace_generalized_scatter:
                    for o in originals:
                        sim.decisions[o] = Decision(o)
                    writes_of[g] = set(originals)
            for c, before in targets_before.items():
                if not c._erased and c.target is not before and c in original_of:
                    sim.decisions[original_of[c]] = Decision(original_of[c])
            in_place_calls = []
            for c in copy_graph.nodes:
                in_place = functionalized_calls.in_place_operands(c) if c in original_of else None
                if in_place:
                    sim.decisions[original_of[c]] = Decision(original_of[c], in_place=tuple(in_place))
                    in_place_calls.append((c, original_of[c], tuple(in_place)))
            pending = {(g.args[0], g.args[1]): originals for g, originals in writes_of.items()}
            passes.decompose_generalized_scatter(copy_graph)
    except Exception as exc:  # noqa: BLE001 - a pass we cannot run: assume the worst
        sim.error = f"{type(exc).__name__}: {exc}"
        for node in candidates(graph):
            sim.decisions[node] = Decision(node, f"Inductor's reinplacing could not be simulated ({sim.error})")
        return sim
    if sim.decisions:
        sim._judge = functools.partial(_judge, graph, copy_graph, sim, original_of, pending, materialized,
                                       in_place_calls, lowered)
    sim.final_copies = copies(copy_graph)
    return sim


def storage_addressed_write_lost(graph: fx.Graph, sim: Simulation, operands: bool = False,
                                 inductor: bool = True) -> str:
    """Why the compiled program would read or write other elements than the program did at an
    ``as_strided`` or ``as_strided_scatter`` ("" if none).  Such a node over a fresh tensor that
    stands for an input at a storage offset (``lm.functional_reading_differs``) means what the
    program does only where Inductor writes the whole chain in place (the node, if it scatters,
    and every functional update between it and the input), so that the fresh tensor is the
    input's memory.  Where its reinplacing would not (the input is read after a scatter), the
    chain's result is a buffer of its own at offset 0, addressed at other elements (fuzz seed 0
    p2559: a scatter; seed 43 p0: a read after a ``select_scatter``; stock Inductor and the eager
    base wrong, aot_eager right).  A simulation that failed decides nothing: the chain counts as
    not in place.  ``operands``: the graph is a higher-order op's function (its inputs are its
    operands).  A v2 call's base is judged by where its views land (``_v2_views_land``) where
    that can be told; ``inductor``: Inductor lowers the graph (False: the eager base)."""
    in_place = _written_in_place(sim)
    regenerated = _outputs_regenerated_from_inputs(graph)
    for node in graph.nodes:
        if node in regenerated:
            continue
        scatter = lm.is_as_strided_scatter(node)       # (it writes through a clone: never exempt)
        for operand, base_index in lm.storage_addressed_operands(node):
            updates, memory = lm.storage_chain(operand)
            if base_index is not None:
                lands = _v2_views_land(node, operand, updates, memory, in_place, inductor)
                if lands:
                    return lands
                if lands is not None:
                    continue
            if not scatter and updates and updates[0] is operand and lm.faked_alike(fake_value(operand),
                                                                                   fake_value(memory)):
                continue                            # allocated as its input is laid out, in place or not
            chain = [(n, None) for n in updates]
            if scatter or base_index is not None:
                chain.append((node, base_index))         # it writes the operand's memory too
            not_in_place = next((n for n, i in chain if not in_place(n, i)), None)
            if not_in_place is None:
                moved = _v2_views_moved(node, operand, updates, memory) if base_index is not None else ""
                if moved:
                    return moved
                continue
            why = lm.operand_reading_differs(node, operand, operands)
            if why:
                return (f"Inductor's reinplacing would not write `{not_in_place.name}` in place, and the "
                        f"functional form addresses other elements than the program did: {why}")
    return ""


def _outputs_regenerated_from_inputs(graph: fx.Graph) -> Set[fx.Node]:
    """The ``as_strided`` reads that only the graph's output reads, where AOTAutograd returns
    every such item as an alias of an input: its runtime regenerates the view from the input
    (replaying the program's views, or with the item's size, strides and offset under dynamic
    shapes), never reading the item's elements (fuzz seed 191 p594:
    ``x0.as_strided(...)`` after ``x0.add_(x0)``, returned; the engine stopped, stock right)."""
    returned = [n for n in graph.nodes
                if lm.is_as_strided_read(n) and n.users and all(u.op == "output" for u in n.users)]
    if not returned:
        return set()                    # (the output roles are read only where they can matter)
    items, roles = output_items(graph), output_roles(graph)
    out = set()
    for node in returned:
        positions = [k for k, item in enumerate(items) if item is node]
        if positions and all(roles[k] == "alias" for k in positions):
            out.add(node)
    return out


def _written_in_place(sim: Simulation) -> Callable[[fx.Node, Optional[int]], bool]:
    """``in_place(n, base_index)``: does Inductor's reinplacing write update ``n`` (a v2 call's
    base ``base_index``) in place?  A simulation that failed: nothing is."""
    def in_place(n: fx.Node, base_index: Optional[int]) -> bool:
        written = lm.v2_base_result(n) if base_index is None else None
        if written:                             # a v2 call's new base: the call writes it in place
            n, base_index = written
        decision = sim.decisions.get(n)
        if decision is None or sim.error:
            return False
        return base_index is None or base_index in decision.in_place
    return in_place


def v1_clone_lost(graph: fx.Graph, simulation: Callable[[], Simulation]) -> str:
    """Why a v1 call would clone an argument from other elements than the program's ("" if none
    would; see :func:`v1_clone_laid_out_otherwise`).  Asked of every post-grad graph: the
    decomposition runs after our pass whatever the graph's functional reading.  ``simulation``
    gives Inductor's reinplacing of the graph; it is asked only where there is a v1 call."""
    calls = [n for n in graph.nodes if functionalized.is_functionalized_call(n)]
    sim = simulation() if calls else None
    for call in calls:
        why = v1_clone_laid_out_otherwise(call, sim)
        if why:
            return why
    return ""


def v1_clone_laid_out_otherwise(call: fx.Node, sim: Simulation) -> str:
    """Why ``call`` (a v1 call) would clone an argument from other elements than the program's
    ("" if it would not).  The decomposition clones a written argument it does not write in place
    with ``clone_preserve_strides``: ``as_strided(x, (n,), (1,), 0)`` of ``x``'s storage, ``n`` and
    the addresses taken from ``x``'s *fake* value.  That is right where the memory ``x`` views is
    laid out as faked: an input; a buffer Inductor allocates (dense) whose fake value fills its
    storage.  Not where an update written in place into that memory was faked with other strides
    (a v2 call of a ``cond`` returns its base with the layout the operand had when Dynamo traced
    it, whatever the base it is given), nor where the buffer was faked with strides that do not
    fill its storage (a ``slice_scatter`` of a ``(10, 2)``-strided input): fuzz seed 163 p812, a
    ``cond`` writing a strided input, then a v1 op on two slices of its transpose; the eager base
    raised ``setStorage`` out of bounds, Inductor read garbage, aot_eager right."""
    if not functionalized.is_functionalized_call(call):
        return ""
    decision = sim.decisions.get(call)
    written_in_place = set(decision.in_place) if decision is not None and not sim.error else set()
    in_place = _written_in_place(sim)
    for name, arg in functionalized.written_operands(call):
        if name in written_in_place:
            continue
        why = _laid_out_as_faked(*lm.storage_chain(arg), in_place)
        if why:
            return (f"`{call.name}` clones its argument `{name}` (`{arg.name}`) at the storage addresses of its "
                    f"fake value, but {why}")
    return ""


def _laid_out_as_faked(updates: List[fx.Node], memory: fx.Node,
                       in_place: Callable[[fx.Node, Optional[int]], bool]) -> str:
    """Why the memory the chain of ``updates`` ends in at run time is not laid out as the first
    update's fake value says ("" if it is, as far as the fake values tell)."""
    for u in updates:
        if not in_place(u, None):
            memory = u
            break
        base = lm.functional_update_base(u)
        a, b = fake_value(u), fake_value(base) if base is not None else None
        if a is None or b is None or not lm.same_layout_at_offset(a, b):
            return f"`{u.name}`, written in place into `{getattr(base, 'name', base)}`, is faked with other strides"
    if memory.op == "placeholder":
        return ""
    faked = fake_value(memory)
    if faked is None or not lm.fills_its_storage(faked):
        return f"`{memory.name}` is faked with strides that do not fill its storage, where its buffer is dense"
    return ""


def _v2_views_land(call: fx.Node, operand: fx.Node, updates: List[fx.Node], memory: fx.Node,
                   in_place: Callable[[fx.Node, Optional[int]], bool], inductor: bool) -> Optional[str]:
    """Why ``call`` (a v2 call) regenerates its views of ``operand`` at other elements than the
    program's ("" if it does not; None if it cannot tell).  It replays them with the strides and
    storage offset of the layout they were recorded in (``lm.v2_recorded_layout``) on the memory
    the base has at run time (``_run_time_layout``): the buffer of the nearest update Inductor's
    reinplacing would not write in place, or the input where it would write them all (a call not
    written in place clones its base with its strides and offset: the layout stays).  Fuzz seed
    103 p571: ``x2.add_(x2.flip(1))`` on a ``(10, 2)``-strided input, then a v2 op on rows of
    ``x2``: ``add``'s buffer is laid out as its fake value, which the views were recorded in (the
    eager base stopped)."""
    recorded = lm.v2_recorded_layout(operand)
    buffer = next((u for u in updates if not in_place(u, None)), memory)
    actual = _run_time_layout(buffer, inductor)
    if recorded is None or actual is None:
        return None
    if lm.same_layout_at_offset(recorded, actual):
        return ""
    where = f"`{buffer.name}`'s buffer" if buffer is not memory else f"the memory of `{memory.name}`"
    return (f"`{call.name}` regenerates its views of `{operand.name}` with the strides and storage offset they "
            f"had in the program, which {where}, the base's memory at run time, does not have")


def _run_time_layout(buffer: fx.Node, inductor: bool) -> Optional[torch.Tensor]:
    """A fake value laid out as ``buffer``'s memory is at run time, where that is known: an input
    as its fake value; under Inductor, a fresh value faked contiguous at offset 0 so; on the eager
    base, an ATen op's value faked dense at offset 0 so (``eager_graph.storage_addressed_as_faked``
    lays it out as faked), but for a view scatter, whose fake value here need not be the one the
    graph has after the pass decomposes the call: ATen's copies its input's whole storage with its
    strides and offset (``clone_preserve_strides``), and a scatter of an input that is not dense is
    never laid out again (fuzz seed 67 p361: a ``select_scatter`` of a ``(10, 1)``-strided input at
    offset 5; corpus p3089: a dense input at offset 5, whose scatter is laid out at offset 0).  With
    symbolic sizes what the pass's trace fakes is not known here: unknown."""
    val = fake_value(buffer)
    if val is None or buffer.op == "placeholder":
        return val
    if inductor:
        return val if lm.fills_its_storage(val) and lm.same_layout_at_offset(val, lm.contiguous_fake(val)) else None
    if not (op_facts.is_op_overload(buffer.target) and buffer.target.namespace in ("aten", "prims")):
        return None
    if not op_facts.is_view_scatter_target(buffer.target):
        return val if lm.fills_its_storage(val) else None
    scattered = buffer.args[0]
    if isinstance(scattered, fx.Node) and scattered.op == "placeholder":
        memory = fake_value(scattered)
        static = memory is not None and all(isinstance(x, int) for x in (*memory.shape, *memory.stride(),
                                                                          memory.storage_offset()))
        if static and not is_non_overlapping_and_dense_or_false(memory):
            return memory
    return None


def _v2_views_moved(call: fx.Node, operand: fx.Node, updates: List[fx.Node], memory: fx.Node) -> str:
    """Why a v2 call's views of ``operand`` land elsewhere once Inductor writes the chain of
    ``updates`` in place into ``memory`` ("" if they do not).  The call regenerates each written
    view as ``as_strided`` of its base with the strides and storage offset functionalization
    recorded, those of the base's fake value: a fresh tensor's own layout where the base is an
    update of an input (an ``index_put`` into a row range of a larger tensor: offset 0).  Written
    in place, the base is the input's memory, laid out as the input is (seed 103 p1061: a v2 op's
    view of `x1[0]` wrote row 0 of the tensor `x1` slices; stock wrong, aot_eager right)."""
    if not updates:
        return ""
    a, b = fake_value(updates[0]), fake_value(memory)
    if a is not None and b is not None and lm.same_layout_at_offset(a, b):
        return ""
    return (f"Inductor's reinplacing writes `{updates[0].name}` in place into `{memory.name}`, laid out otherwise "
            f"than its fake value, whose strides and storage offset `{call.name}` regenerates its views of "
            f"`{operand.name}` with")


def _scatter_signature(scatter: fx.Node):
    """What Inductor's canonicalization makes of a view scatter it does not fuse: a
    ``_generalized_scatter`` of the same source whose last view is the scatter's own."""
    try:
        return scatter.args[1], passes.ViewOp(passes._SCATTER_OP_TO_VIEW[scatter.target], args=scatter.args[2:],
                                              kwargs=scatter.kwargs)
    except (KeyError, IndexError, AttributeError):
        return None


def _map_generalized(scatter_users, original_of, signatures=None, graph=None) -> Dict[fx.Node, List[fx.Node]]:
    """Which original view scatters each ``_generalized_scatter`` of the copy stands for (a
    chain of scatters through views of one base becomes one).  A scatter replaced on its own is
    found by its source and view (``_scatter_signature``: fuzz seed 53 p103, an
    ``as_strided_scatter`` that a ``select_scatter`` then updates, whose replacement the
    heuristics below gave to the ``select_scatter``'s); the rest by who reads the replacement."""
    out: Dict[fx.Node, List[fx.Node]] = {}
    owner: Dict[fx.Node, fx.Node] = {}
    made = [g for g in graph.nodes if g.target is passes._generalized_scatter] if graph is not None else []
    for c, signature in (signatures or {}).items():
        found = [g for g in made if signature is not None and g.args[1] is signature[0]
                 and g.args[2] and g.args[2][-1] == signature[1]]
        if len(found) == 1:
            owner[c] = found[0]
    for c, users in scatter_users.items():
        if c in owner:
            continue
        for u in users:
            if u._erased:
                continue
            for a in _flat(u.args):
                if isinstance(a, fx.Node) and a.target is passes._generalized_scatter:
                    owner[c] = a
    changed = True
    while changed:                      # inner scatters of a fused chain: their user was the outer one
        changed = False
        for c, users in scatter_users.items():
            if c in owner:
                continue
            for u in users:
                if u in owner:
                    owner[c] = owner[u]
                    changed = True
                    break
    for c, g in owner.items():
        out.setdefault(g, []).append(original_of[c])
    return out


def _judge(graph, copy_graph, sim: Simulation, original_of, pending, materialized, in_place_calls=(),
           lowered: bool = True) -> None:
    """Mark the decisions whose writes make the copy wrong."""
    modelled: Dict[fx.Node, List[fx.Node]] = {}
    for call, original, in_place in in_place_calls:       # what Inductor's decomposition makes of them
        writes, hazard = functionalized_calls.model_in_place(copy_graph, call, list(in_place))
        for w in writes:
            modelled[w] = [original]
        if hazard:
            sim.decisions[original].unsafe = f"after Inductor's reinplacing, {hazard}"
    terms = Terms()
    before, after = observe_graph(graph, terms), observe_graph(copy_graph, terms)
    write_owner: Dict[fx.Node, List[fx.Node]] = {}
    for n in copy_graph.nodes:
        if n.op != "call_function" or not op_facts.written_nodes(n):
            continue
        if n in original_of and original_of[n] in sim.decisions:
            write_owner[n] = [original_of[n]]
        elif op_facts.is_copy_target(n.target) and n not in original_of:
            # a decomposed scatter's copy; its base may since be the memory of a functionalized
            # call written in place (model_in_place rewires the call's items: seed 67 p564)
            sources = [(inp, originals) for (inp, src), originals in pending.items() if n.args[1] is src]
            same = [o for inp, o in sources if _root(n.args[0]) is _root(inp)]
            for originals in same or [o for _, o in sources]:
                write_owner.setdefault(n, []).extend(originals)
    write_owner.update(modelled)
    if before != after:
        reason = f"Inductor's reinplacing would change what the program computes ({before.difference(after)})"
        involved = _decisions_on(after.changed_roots(before), write_owner)
        for node in involved or list(sim.decisions):
            sim.decisions[node].unsafe = reason
    originals = [original_of.get(_root(n), _root(n)) for n in output_tensors(copy_graph)]
    aliasing = aliasing_change([_root(n) for n in output_tensors(graph)], originals, graph)
    if aliasing:
        reason = f"after Inductor's reinplacing, {aliasing}"
        roots = {n.target for n in originals if n.op == "placeholder"}
        for node in _decisions_on(roots, write_owner) or list(sim.decisions):
            if not sim.decisions[node].unsafe:
                sim.decisions[node].unsafe = reason
        _note_outputs_into_inputs(sim, graph, originals, reason)
    model = LoweringModel(copy_graph, materialized, lowered=lowered)
    for hazard in model.hazards():
        if hazard.write in modelled and not _read_late_by_inductor(hazard, modelled[hazard.write]):
            continue    # an extern call's write: Inductor realizes what reads the memory before it
            #             (GraphLowering.mark_buffer_mutated), so nothing lazy reads it late
        if hazard.kind == "inside" and _is_copy_back(original_of.get(hazard.write)):
            sim.copy_backs_read_inside.setdefault(original_of[hazard.write],
                                                  "after Inductor's reinplacing, " + hazard.describe())
        own = write_owner.get(hazard.write)
        if hazard.write in modelled and original_of.get(hazard.reader) is not None:
            for node in own:
                if original_of[hazard.reader] not in sim.decisions[node].late_reads:
                    sim.decisions[node].late_reads += (original_of[hazard.reader],)
        owners = own or _owners_through(hazard.operand, write_owner)
        if not owners:
            written = {_root(d) for d in op_facts.written_nodes(hazard.write)}
            owners = [o for w, os in write_owner.items() for o in os
                      if any(_root(d) in written for d in op_facts.written_nodes(w))]
        for node in owners:
            decision = sim.decisions[node]
            if not decision.unsafe:
                decision.unsafe = "after Inductor's reinplacing, " + hazard.describe()
                decision.reads_own_source = bool(own) and hazard.kind == "inside"
            elif not (own and hazard.kind == "inside"):
                decision.reads_own_source = False
    _leave_storage_addressed_scatters(sim)
    _trust_private_copies(sim)


def _note_outputs_into_inputs(sim: Simulation, graph: fx.Graph, roots_after: List[fx.Node], reason: str) -> None:
    """Record the decisions whose value is an output AOTAutograd returns as a tensor of its own
    (or the memory such an output views) and that the pass writes into an input's memory."""
    roots_before = [_root(n) for n in output_tensors(graph)]
    roles = tensor_output_roles(graph, len(roots_before))
    for i, (before, after) in enumerate(zip(roots_before, roots_after)):
        if roles[i] == "own" and after.op == "placeholder" and before in sim.decisions:
            sim.outputs_into_inputs.setdefault(before, reason)


def _read_late_by_inductor(hazard, calls) -> bool:
    """A lazy read consumed after a functionalized call writes what it reads, which Inductor does
    not realize before the call: a 0-dim value (fuzz seed 47 p271: `x1[1, 1].clone()` before a
    custom op writes `x1[1:3, 1]` under `auto_functionalized_v2`, stock Inductor returned the new
    value; the same read of two elements was ordered right), or any value read before a
    `while_loop` or `cond` the call wraps, which Inductor lowers as calls of its functions, not as
    an extern kernel (seed 67 p555: `o2 = x0.clone()` before a loop writing `x0`)."""
    if hazard.kind != "deferred":
        return False
    value = fake_value(hazard.reader)
    zero_dim = isinstance(value, torch.Tensor) and value.dim() == 0
    return zero_dim or any(functionalized.is_functionalized_hop_v2(c) for c in calls)


def _is_copy_back(node: Optional[fx.Node]) -> bool:
    """``node`` copies a value into a graph input (the copy-back of a mutated input).  Inductor
    may realize the value into a buffer first (``realize_into``), but where an earlier write
    reinplaced by its pass changed the input, its scheduler still fuses that computation into
    the copy's loop (pytorch 198270, fuzz p950): no realization is trusted here."""
    return (node is not None and op_facts.is_copy_target(node.target) and isinstance(node.args[0], fx.Node)
            and node.args[0].op == "placeholder")


def _leave_storage_addressed_scatters(sim: Simulation) -> None:
    """An ``as_strided_scatter`` whose functional reading is not the program's
    (``layout_maps.scatter_addresses_a_copy``): Inductor's in-place write is what the program
    does, and no private copy can be right (it moves the write; the legality check refuses
    one).  Its decision stays unsafe only where copying the scattered source first repairs it
    (the write reads its own source inside its loop, ``materialize_source_for_inductor``);
    else it is left to Inductor, as stock Inductor would, and the reason kept as ``unproven``."""
    for node, decision in sim.decisions.items():
        if decision.unsafe and not decision.reads_own_source and lm.scatter_addresses_a_copy(node):
            decision.unproven = (f"{decision.unsafe}; left to Inductor: the functional {node.name} addresses a copy "
                                 f"of its base, where the program's as_strided (and Inductor's in-place write) "
                                 f"address the base's own storage")
            decision.unsafe = ""


def _trust_private_copies(sim: Simulation) -> None:
    """A decision to write in place into a buffer only the update uses (one the ``privatize``
    action made) cannot change what anything else reads, whatever the judge could not prove
    about the graph around it: such a decision is safe by construction, and what the judge
    said is kept as ``unproven``.  (The judge can refuse right graphs, never accept wrong ones:
    without this, a graph it cannot normalize would stop the compilation.)"""
    for node, decision in sim.decisions.items():
        if decision.unsafe and decision.in_place and \
                functionalized_calls.in_place_into_private_copies(node, decision.in_place):
            decision.unproven, decision.unsafe = decision.unsafe, ""
        elif decision.unsafe and node.args and op_facts.is_private_copy(node.args[0], node):
            decision.unproven, decision.unsafe = decision.unsafe, ""


def _owners_through(node: fx.Node, write_owner) -> List[fx.Node]:
    """Decisions whose write ``node`` reads through (its alias chain passes a decision's write)."""
    while node is not None:
        if node in write_owner:
            return list(write_owner[node])
        node = op_facts.alias_source(node)
    return []


def _decisions_on(roots, write_owner) -> List[fx.Node]:
    out = []
    for w, originals in write_owner.items():
        if any(_root(d).target in roots for d in op_facts.written_nodes(w)):
            out.extend(originals)
    return out


def _root(node: fx.Node) -> fx.Node:
    while True:
        source = op_facts.alias_source(node)
        if source is None:
            return node
        node = source


def _flat(a):
    if isinstance(a, (list, tuple)):
        for x in a:
            yield from _flat(x)
    else:
        yield a
