"""Checking a case's EXPECT block: the names it mentions before anything runs, then each
expectation against the backend's reports.

Names first: every rule must be defined in the rule files the run uses, every op must exist.
Without this, ``not fires: reinplace_scater`` or ``absent: aten.scater`` would pass for ever, and
a case run with other rules (``rewrite test --rules other.rules``) would report "no candidate"
for a rule that is simply not loaded."""
from __future__ import annotations

import difflib
import os
from functools import lru_cache
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from rewrite.engine.report import Candidate, Report
from rewrite.lang import ast as A
from rewrite.lang.loader import read_files, shipped_rules_dir
from rewrite.lang.ops import OPS, OpLookupError
from rewrite.testing.expect import Expectation

# --------------------------------------------------------------------------- names, before the run


RULE_KINDS = ("fires", "rejects", "not_fires")
OP_KINDS = ("absent", "present")


def _key(paths: Optional[Sequence]) -> Tuple[Tuple[str, int, int], ...]:
    """Identifies a rule set by its paths and their modification times (a file edited between
    two runs in one process is read again)."""
    out = []
    for p in [shipped_rules_dir()] if paths is None else paths:
        p = os.fspath(p)
        try:
            info = os.stat(p)
            out.append((p, info.st_mtime_ns, info.st_size))
        except OSError:
            out.append((p, 0, 0))
    return tuple(out)


@lru_cache(maxsize=16)
def _defined(key: Tuple[Tuple[str, int, int], ...]) -> Dict[str, str]:
    modules, _, _ = read_files([p for p, _, _ in key])
    return {item.name: item.span.file for m in modules for item in m.items
            if isinstance(item, (A.Rule, A.Dependency))}


def rules_defined(paths: Optional[Sequence] = None) -> Dict[str, str]:
    """Rule (and dependency) name -> defining file, for the rule files ``paths`` (None: the
    shipped rules).  Only read and parsed, not checked: a broken file is reported by the run."""
    return _defined(_key(paths))


def name_problems(expectations: Sequence[Expectation], rules: Optional[Sequence] = None) -> List[str]:
    """Why the names in ``expectations`` cannot be checked against a run with ``rules``: one
    message per unknown rule, rule not loaded, or unknown op."""
    problems: List[str] = []
    in_use = rules_defined(rules)
    shipped = rules_defined(None) if rules is not None else in_use
    for e in expectations:
        if e.kind in RULE_KINDS and e.subject not in in_use:
            if e.subject in shipped:
                used = f"uses only {', '.join(os.fspath(p) for p in rules)}" if rules else "loads no rule files"
                problems.append(f"{e.text}: rule '{e.subject}' is not loaded: it is defined in "
                                f"{shipped[e.subject]}, but this run {used}")
            else:
                close = difflib.get_close_matches(e.subject, sorted(in_use), n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                problems.append(f"{e.text}: unknown rule '{e.subject}': no rule file of this run defines it{hint}")
        elif e.kind in OP_KINDS:
            problem = _op_problem(e.subject)
            if problem:
                problems.append(f"{e.text}: {problem}")
    return problems


def _op_problem(name: str) -> Optional[str]:
    parts = name.split(".")
    if len(parts) < 2:
        return f"'{name}' is not an op name; write namespace.op (aten.add) or namespace.op.overload"
    try:
        OPS.resolve(parts)
    except OpLookupError as exc:
        return exc.message + (f"; {exc.hint}" if exc.hint else "")
    return None


# --------------------------------------------------------------------------- expectations, after the run


def op_count(ops: dict, op: str) -> int:
    """Occurrences of ``op`` in an ops table: ``aten.add`` counts every overload
    (``aten.add.Tensor``...), ``aten.add.Tensor`` only that one."""
    return sum(n for name, n in ops.items() if name == op or name.startswith(op + "."))


def candidates(reports: Iterable[Report]) -> List[Candidate]:
    return [c for r in reports for c in r.candidates]


def check_expectation(e: Expectation, reports: List[Report]) -> List[str]:
    """Failure messages for one expectation (empty when it holds)."""
    graphs = [r for r in reports if e.graph_matches(r.graph)]
    where = {"any": "", "post": " in the post-grad graph"}.get(e.graph, f" in the {e.graph} graph")
    if e.kind in ("absent", "present"):
        if not graphs:
            have = ", ".join(r.graph for r in reports) or "none"
            return [f"{e.text}: no {e.graph} graph was processed (graphs: {have})"]
        n = sum(op_count(r.ops_after, e.subject) for r in graphs)
        if e.kind == "absent":
            return [] if n == 0 else [f"{e.text}: found {n} x {e.subject}{where} after the rules"]
        if e.count is None:
            ok = n >= 1
        else:
            ok = n >= e.count if e.at_least else n == e.count
        want = "at least 1" if e.count is None else (f"at least {e.count}" if e.at_least else f"exactly {e.count}")
        return [] if ok else [f"{e.text}: wanted {want} x {e.subject}{where} after the rules, found {n}"]

    if e.kind == "copies":
        if not graphs:
            return [f"{e.text}: no {e.graph} graph was processed"]
        found = [c for r in graphs for c in r.copies_after]
        total = sum(c.nbytes for c in found)
        if not isinstance(total, int) and all(c.hint_bytes is not None for c in found):
            # symbolic sizes: judged at the sizes the case ran with (the hints, never a guard)
            total = sum(c.hint_bytes for c in found)
        if isinstance(total, int) and total <= e.count:
            return []
        return [f"{e.text}: the copies left{where} write {total} bytes: " + "; ".join(c.describe() for c in found)]

    mine = [c for c in candidates(graphs) if c.rule == e.subject]
    fired = [c for c in mine if c.fired]
    if e.kind == "fires":
        if e.count is None:
            ok = len(fired) >= 1
        else:
            ok = len(fired) >= e.count if e.at_least else len(fired) == e.count
        if ok:
            return []
        why = "; ".join(f"{c.node} [{c.graph}] stopped at {c.stopped_at}: {c.reason}" for c in mine if not c.fired)
        times = "" if e.count is None else f" {e.count} time(s) (fired {len(fired)})"
        return [f"{e.text}: {e.subject} did not fire{times}{where}"
                + (f"; {why}" if why else "; no candidate at all (the match never succeeded)")]
    if e.kind == "not_fires":
        return [] if not fired else [f"{e.text}: {e.subject} fired{where} on "
                                     + ", ".join(f"{c.node} [{c.graph}]" for c in fired)]
    if e.kind == "rejects":
        hits = [c for c in mine if c.stopped_at == e.stage and e.because in c.reason]
        if hits:
            return []
        got = "; ".join(f"{c.node} [{c.graph}]: " + ("fired" if c.fired else f"stopped at {c.stopped_at}: {c.reason}")
                        for c in mine) or "no candidate at all"
        because = f" because ...{e.because}..." if e.because else ""
        return [f"{e.text}: no candidate of {e.subject} stopped at {e.stage}{because}{where}; got: {got}"]
    return []


def check_reports(expectations: Iterable[Expectation], reports: List[Report]) -> List[str]:
    problems: List[str] = []
    for e in expectations:
        if e.kind in ("fires", "rejects", "not_fires", "absent", "present", "copies"):
            problems += check_expectation(e, reports)
    return problems


def describe_got(rules: List[str], reports: List[Report]) -> str:
    """A short account of what the named rules did (all rules when none are named)."""
    parts: List[str] = []
    cands = candidates(reports)
    names = rules or sorted({c.rule for c in cands})
    for rule in names:
        mine = [c for c in cands if c.rule == rule]
        fired = sum(c.fired for c in mine)
        stops = sorted({c.stopped_at for c in mine if not c.fired})
        if fired:
            parts.append(f"fired {rule}" + (f" x{fired}" if fired > 1 else ""))
        if stops:
            parts.append(f"reject {rule}@{'/'.join(stops)}")
        if not mine:
            parts.append(f"no {rule} candidate")
    return "; ".join(parts) or "-"
