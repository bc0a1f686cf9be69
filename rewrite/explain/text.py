"""The text of ``rewrite explain``: per graph, the graph before and after the rules (marked line
by line with what changed), then every candidate with its rule, source line, the steps it
reached, and where it stopped and why."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional, Sequence

from rewrite.engine.report import Candidate, GraphSnapshot, Report
from rewrite.explain.diff import GraphChange, compare, same_graph, writes_of
from rewrite.explain.labels import node_text
from rewrite.stages import STEPS

MARKER = {"removed": "- ", "added": "+ ", "changed": "~ ", "same": "  "}
KEY = "(- removed by the rules, + added, ~ changed; '# writes X': an in-place op writing X's memory)"


def rule_source_line(location: str) -> str:
    """The text of the rule file line a candidate's ``location`` ("file:line") points at."""
    path, _, line = location.rpartition(":")
    try:
        return Path(path).read_text().splitlines()[int(line) - 1].strip()
    except (OSError, ValueError, IndexError):
        return ""


def steps_reached(c: Candidate) -> str:
    return ", ".join(s for s in STEPS if s in c.reached) or "-"


def candidate_lines(c: Candidate) -> List[str]:
    lines = [c.line(), f"    {'fired' if c.fired else f'stopped at {c.stopped_at}'}; reached: {steps_reached(c)}"]
    src = rule_source_line(c.location)
    if src:
        lines.append(f"    rule source ({c.location}): {src}")
    return lines


def graph_lines(snapshot: Optional[GraphSnapshot], change: GraphChange, side: str) -> List[str]:
    if snapshot is None or not snapshot.nodes:
        return ["  (graph not recorded)"]
    out = []
    for n in snapshot.nodes:
        written = writes_of(n)
        out.append(MARKER[change.status(n.name, side)] + node_text(n)
                   + (f"  # writes {', '.join(written)}" if written else ""))
    return out


def render_report(report: Report, title: str = "") -> str:
    head = f"== {title or report.graph + ' graph'}: "
    if report.cache_hit:
        return head + "served from Inductor's FX graph cache: the rules did not run on it =="
    if report.fallback:
        return head + f"compiling failed ({report.fallback}): the graph runs {report.fallback_runs}, no rules =="
    out = [head + f"{len(report.fired)} fired, {len(report.rejected)} rejected, "
           f"~{report.bytes_removed} bytes of clone/copy traffic removed per call =="]
    if report.copies is not None:
        out.append(report.copies.describe())
    change = compare(report.before, report.after)
    if same_graph(report.before, report.after):
        out += ["-- the graph (the rules did not change it) --"] + graph_lines(report.before, change, "before")
    else:
        out += ["-- before the rules --"] + graph_lines(report.before, change, "before")
        out += ["-- after the rules --"] + graph_lines(report.after, change, "after")
    out.append("-- candidates --")
    if report.candidates:
        for c in report.candidates:
            out += ["  " + line for line in candidate_lines(c)]
    else:
        out.append("  (no rule matched any node)")
    out += [f"  repaired: {r}" for r in report.repairs]
    out += [f"  warning: {w}" for w in report.warnings]
    return "\n".join(out)


def section_titles(reports: Sequence[Report]) -> List[str]:
    """``inference graph``, or ``inference graph 2 of 3`` when several graphs are of one kind."""
    total = {r.graph: sum(1 for o in reports if o.graph == r.graph) for r in reports}
    seen: dict = {}
    titles = []
    for r in reports:
        seen[r.graph] = seen.get(r.graph, 0) + 1
        titles.append(f"{r.graph} graph" + (f" {seen[r.graph]} of {total[r.graph]}" if total[r.graph] > 1 else ""))
    return titles


def render_text(reports: Sequence[Report], title: str = "") -> str:
    total = sum(r.bytes_removed for r in reports)
    head = [f"rewrite explain: {title}" if title else "rewrite explain",
            f"{len(reports)} graph(s); {sum(len(r.fired) for r in reports)} rewrite(s) fired; "
            f"estimated clone/copy traffic removed: {total} bytes per call",
            KEY]
    return "\n\n".join(["\n".join(head)] + [render_report(r, t) for r, t in zip(reports, section_titles(reports))])
