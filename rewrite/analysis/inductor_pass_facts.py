"""The questions rules ask about Inductor's own passes after ours: its reinplacing, simulated on
the graph as it is (``analysis/inductor/reinplace.py``), and its lowering
(``analysis/inductor/lowering.py``).  A part of :class:`rewrite.analysis.graph_facts.GraphFacts`,
which keeps the state these read (``_simulation``, ``_dirty``, ``lowered``...)."""
from __future__ import annotations

from typing import Optional

import torch.fx as fx

from rewrite.analysis.facts import functionalized
from rewrite.analysis.facts.verdict import Verdict, no, yes
from rewrite.analysis.inductor import functionalized_calls
from rewrite.analysis.inductor.lowering import LoweringModel
from rewrite.analysis.inductor.reinplace import simulate, v1_clone_laid_out_otherwise


class InductorPassFacts:
    """Inductor's reinplacing and lowering, as the rules' predicates ask about them."""

    def simulation(self, about: Optional[fx.Node] = None):
        """Inductor's reinplacing simulated on the graph as it is.  Made again after a rewrite
        committed, except that a question ``about`` a node whose memory no rewrite since has
        touched is answered from the last one (Inductor decides per tensor, from that tensor's
        aliases and users).  Without ``about``, always current (the engine's own final check of
        Inductor's decisions uses that)."""
        if self._simulation is None or (self._dirty and (about is None or self._touches_dirty(about))):
            self._simulation = simulate(self.root, self.graph, self.materialized, lowered=self.lowered)
            self._dirty = set()
        return self._simulation

    def _touches_dirty(self, n: fx.Node) -> bool:
        keys = {self.storage_key(n)} | {self.storage_key(a) for a in n.all_input_nodes}
        return bool(keys & self._dirty)

    def seed_simulation(self, simulation) -> None:
        """A simulation of the graph as it is now, made by the caller."""
        if simulation is not None:
            self._simulation, self._dirty = simulation, set()

    def inductor_reinplaces(self, n) -> Verdict:
        decision = self.simulation(n).decisions.get(n)
        return Verdict(decision is not None, f"Inductor would write {n.name} in place" if decision else "")

    def inductor_reinplace_unsafe(self, n) -> Verdict:
        decision = self.simulation(n).judge().decisions.get(n)
        if decision is None or not decision.unsafe:
            return no()
        return yes(decision.unsafe)

    def inductor_reinplace_reads_own_source(self, n) -> Verdict:
        decision = self.simulation(n).judge().decisions.get(n)
        if decision is None or not decision.reads_own_source:
            return no()
        return yes(decision.unsafe)

    def inductor_late_reads(self, f) -> list:
        """The values read before ``f`` (a functionalized call) that Inductor would compute after
        it writes their memory in place.  (Asked of the graph as it is: the values are not ``f``'s
        operands, and a simulation kept for ``f`` would not see them materialized since.)"""
        decision = self.simulation().judge().decisions.get(f) if isinstance(f, fx.Node) else None
        return [n for n in (decision.late_reads if decision is not None else ()) if not n._erased]

    def inductor_reads_late(self, f) -> Verdict:
        late = self.inductor_late_reads(f)
        return yes(f"Inductor would compute {', '.join(n.name for n in late)} after {f.name}") if late else no()

    def inductor_clones_at_symbolic_offset(self, f) -> Verdict:
        if not (isinstance(f, fx.Node) and functionalized.is_functionalized_call(f)):
            return no()
        decision = self.simulation(f).decisions.get(f)
        why = functionalized_calls.cloned_at_symbolic_offset(f, decision.in_place if decision is not None else ())
        return yes(why) if why else no()

    def inductor_clones_laid_out_otherwise(self, f) -> Verdict:
        why = v1_clone_laid_out_otherwise(f, self.simulation()) if isinstance(f, fx.Node) else ""
        return yes(why) if why else no()

    def inductor_reinplacing_returns_input(self, n) -> Verdict:
        # (asked of the graph as it is: what the outputs are changes with rewrites of their
        # readers, which a simulation kept for ``n`` would not see)
        why = self.simulation().judge().outputs_into_inputs.get(n) if isinstance(n, fx.Node) else None
        return yes(why) if why else no()

    def inductor_reinplacing_reads_inside_copy_back(self, c) -> Verdict:
        why = self.simulation(c).judge().copy_backs_read_inside.get(c)
        return yes(why) if why else no()

    def lowering_hazard(self, w) -> Verdict:
        hazards = self.lowering_model().hazards([w]) if isinstance(w, fx.Node) else []
        return yes(hazards[0].describe()) if hazards else no()

    def stock_lowering_model(self) -> LoweringModel:
        """A lowering model as stock Inductor lowers the graph (``buffered`` ops in buffers),
        for repair rules; made fresh, since it is asked rarely (copy-backs)."""
        return LoweringModel(self.graph, self.materialized, buffered_are_lazy=False, lowered=self.lowered)

    def lowering_hazard_inside(self, w) -> Verdict:
        inside = self.stock_lowering_model().inside_hazards(w) if isinstance(w, fx.Node) else []
        return yes(inside[0].describe()) if inside else no()

    def realized_before_copy(self, x) -> Verdict:
        if not isinstance(x, fx.Node):
            return no(f"{x!r} is not a node")
        realized, why = self.stock_lowering_model().realized_before_copy(x)
        return Verdict(realized, why)
