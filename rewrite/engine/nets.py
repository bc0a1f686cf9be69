"""The engine's nets under the post-grad repair rules, run once the rules reached their fixpoint:
what Inductor's functional passes before ours did (:func:`repair_earlier_passes`) and what its
reinplacing after ours would still get wrong (:func:`own_inductor_reinplacing`).  Each repair is
a transaction checked by the legality check; one that cannot be made stops the compilation.
``st`` is the rule set's state of the graph (``ruleset._GraphState``)."""
from __future__ import annotations

import logging

from rewrite.analysis.facts.op_facts import op_display_name
from rewrite.analysis.inductor import earlier_passes
from rewrite.engine.errors import EarlierPassError, Refused
from rewrite.engine.report import Report, log, warn
from rewrite.engine.transaction import Transaction


def repair_earlier_passes(st, report: Report, strict: bool, on_new_node) -> None:
    """The net under the repair rules for what Inductor's functional passes before ours did
    (``analysis/inductor/earlier_passes.py``): a value read after a copy-back the program read before
    it, or an output in an input's memory where the program returns one of its own, gets a
    copy of its own (taken before the write), checked by the legality check; an output
    AOTAutograd regenerates from an input with its own layout returns that input.  Then the
    semantic model confirms that the graph as it runs computes what its functional reading
    does; a graph that does not is never compiled."""
    graph, roles = st.graph, st.facts.output_roles()
    reads = st.facts.all_late_reads()
    covered = {(r.operand, p) for r in reads if r.reader.op == "output" for p in r.positions}
    joint = st.facts.joint_output_groups()
    found = reads + [m for m in earlier_passes.misplaced_outputs(graph, roles, joint)
                     if (m.node, m.position) not in covered] \
        + earlier_passes.regenerated_outputs(graph, roles, st.facts.output_bases())
    if found:
        copies = [f for f in found if getattr(f, "returns", None) is None]
        try:
            _commit_checked(st, strict, on_new_node, lambda: st.ctx.edit.copy_for_readers(copies),
                            proven=lambda: st.ctx.edit.copy_for_readers([f for f in found if f not in copies]))
        except Exception as e:  # noqa: BLE001
            raise EarlierPassError(f"{st.label}: {found[0].describe()}: {found[0].culprit}, and it could "
                                   f"not be repaired: {e}") from e
        for f in found:
            note = f"{st.label}: {f.describe()}: {f.culprit}; {f.remedy}"
            report.repairs.append(note)
            log.info("%s", note)
    why = earlier_passes.functional_reading_kept(graph, st.facts.original_writes, roles) \
        or "; ".join(m.describe() for m in earlier_passes.misplaced_outputs(graph, roles, joint))
    if why:
        raise EarlierPassError(f"{st.label}: the graph as Inductor would run it does not compute what the "
                               f"program does ({why}); refusing to compile it")


def own_inductor_reinplacing(st, report: Report, strict: bool, on_new_node):
    """The safety net under the repair rules: if Inductor's reinplacing would still make an
    unsafe decision on this graph, give those nodes private copies of their bases (always
    right, never cheaper than the functional op) and say so."""
    for _ in range(3):
        sim = st.facts.simulation()          # reused when no rewrite came after the last one
        unsafe = sim.unsafe()
        if not unsafe:
            return sim
        for decision in unsafe:
            node = decision.node
            try:
                _commit_checked(st, strict, on_new_node, lambda: st.ctx.edit.privatize(node))
            except Exception as e:  # noqa: BLE001
                raise RuntimeError(f"{st.label}: Inductor's reinplacing of {node.name} would be wrong "
                                   f"({decision.unsafe}) and it could not be prevented: {e}") from e
            warn(report, f"{st.label}: {node.name} ({op_display_name(node.target)}) now works on a private "
                         f"copy, because {decision.unsafe}", logging.INFO)
    raise RuntimeError(f"{st.label}: Inductor's reinplacing stays unsafe after repairs")


def _commit_checked(st, strict: bool, on_new_node, edit, proven=None) -> None:
    """Run ``edit()`` in a transaction that the legality check must accept (then ``proven()``,
    edits right by construction, in the same transaction), commit it and note the change; on any
    failure the graph is rolled back and the exception raised."""
    txn = Transaction(st.root, st.graph, strict=strict, on_new_node=on_new_node)
    st.ctx.txn = txn
    try:
        edit()
        txn.validate()
        verdict = st.legality.check(txn.created, txn.to_erase, txn.old_args)
        if not verdict:
            raise Refused(verdict.why)
        if proven is not None:
            proven()
        txn.commit()
    except BaseException:
        txn.rollback()
        raise
    finally:
        st.ctx.txn = None
    st.legality.note_committed(list(txn.old_args) + list(txn.created))
    st.facts.note_changed(list(txn.old_args) + list(txn.created))
