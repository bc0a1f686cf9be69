"""The self-contained page of ``rewrite explain --html``: inline CSS and SVG, no script, nothing
fetched.  Per graph: what the rules did, the candidate table, the graph before and after (drawn
once when the rules left it as it was; large graphs collapsed around the rules' work, with the
full drawing one click away), the graph's code; a legend for every colour at the top."""
from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Dict, Sequence

import rewrite.explain.collapse as collapse
from rewrite.engine.report import Candidate, Report
from rewrite.explain.diff import GraphChange, compare, same_graph
from rewrite.explain.picture import draw
from rewrite.explain.svg import legend_html
from rewrite.explain.text import graph_lines, rule_source_line, section_titles
from rewrite.stages import STEPS

CSS_FILE = Path(__file__).with_name("page.css")
#: Larger graphs are drawn collapsed only (their full drawing would be tens of megabytes).
FULL_DRAWING_MAX = 1000


def render_html(reports: Sequence[Report], title: str = "rewrite explain") -> str:
    titles = section_titles(reports)
    total = sum(r.bytes_removed for r in reports)
    fired = sum(len(r.fired) for r in reports)
    nav = "".join(f'<li><a href="#graph-{i}">{escape(t)}</a>: {_outcome(r)}</li>'
                  for i, (r, t) in enumerate(zip(reports, titles)))
    body = [f"<h1>{escape(title)}</h1>",
            f'<p class="summary">{len(reports)} graph(s); {fired} rewrite(s) fired; estimated clone/copy '
            f"traffic removed: {escape(str(total))} bytes per call. Hover over a box for its full text.</p>",
            f"<nav><ol>{nav}</ol></nav>", legend_html()]
    drawn: Dict[tuple, tuple] = {}     # what a picture shows -> (anchor, title) of its section
    body += [_section(r, t, f"graph-{i}", drawn) for i, (r, t) in enumerate(zip(reports, titles))]
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>\n{CSS_FILE.read_text()}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")


def _outcome(r: Report) -> str:
    if r.cache_hit:
        return "served from Inductor's cache, not rewritten"
    if r.fallback:
        return f"compiling failed: runs {r.fallback_runs}, not rewritten"
    changed = "changed" if not same_graph(r.before, r.after) else "unchanged"
    return f"{len(r.fired)} fired, {len(r.rejected)} rejected, graph {changed}"


def _section(report: Report, title: str, anchor: str, drawn: Dict[tuple, tuple]) -> str:
    parts = [f'<section id="{anchor}"><h2>{escape(title)}</h2>']
    if report.cache_hit:
        parts.append("<p>Served from Inductor's FX graph cache: the rules did not run on it.</p></section>")
        return "\n".join(parts)
    if report.fallback:
        parts.append(f"<p>Compiling failed ({escape(report.fallback)}): the graph runs "
                     f"{escape(report.fallback_runs)}, without "
                     "the rules or Inductor.</p></section>")
        return "\n".join(parts)
    change = compare(report.before, report.after)
    parts.append(f'<p class="summary">{len(report.fired)} fired, {len(report.rejected)} rejected; '
                 f"estimated clone/copy traffic removed: {escape(str(report.bytes_removed))} bytes per call. "
                 f"{escape(_change_text(report, change))}</p>")
    if report.copies is not None:
        parts.append(f'<p class="summary">{escape(report.copies.describe())}</p>')
    parts.append(_candidate_table(report.candidates))
    parts.append(_pictures(report, change, anchor, title, drawn))
    parts.append(_code(report, change))
    parts += [f'<p class="warning">repaired: {escape(r)}</p>' for r in report.repairs]
    parts += [f'<p class="warning">warning: {escape(w)}</p>' for w in report.warnings]
    parts.append("</section>")
    return "\n".join(parts)


def _change_text(report: Report, change: GraphChange) -> str:
    if same_graph(report.before, report.after):
        return "The rules did not change this graph."
    return (f"The rules removed {len(change.removed)}, added {len(change.added)} and changed "
            f"{len(change.changed)} node(s).")


# --------------------------------------------------------------------------- candidates


def _candidate_table(candidates: Sequence[Candidate]) -> str:
    if not candidates:
        return '<p class="summary">No rule matched any node.</p>'
    rows = ["<tr><th>rule, its source</th><th>node</th><th>graph</th><th>steps</th>"
            "<th>outcome</th><th>why / what it did</th></tr>"]
    for c in candidates:
        src = rule_source_line(c.location)
        outcome = "fired" if c.fired else f"stopped at {c.stopped_at}"
        detail = (f"removed {', '.join(c.before) or '-'}; added {', '.join(c.after) or '-'}; "
                  f"~{c.bytes_removed} bytes of copies removed" if c.fired else c.reason)
        rows.append(f'<tr class="{"fired" if c.fired else "rejected"}"><td class="rule"><b>{escape(c.rule)}</b>'
                    f"<br><code>{escape(c.location)}</code>"
                    + (f"<br><code>{escape(src)}</code>" if src else "")
                    + f'</td><td class="node"><code>{escape(c.node)}</code></td><td class="graph">{escape(c.graph)}</td>'
                    f'<td class="steps">{_steps(c)}</td><td class="outcome">{escape(outcome)}</td>'
                    f'<td class="why">{escape(detail)}</td></tr>')
    return '<div class="table"><table>' + "".join(rows) + "</table></div>"


def _steps(c: Candidate) -> str:
    """Every step of ``rewrite.stages.STEPS``: passed, the one that stopped it, or not run."""
    out = []
    for step in STEPS:
        if step == c.stopped_at:
            kind, tip = "stopped", "stopped the candidate here"
        elif step in c.reached:
            kind, tip = "passed", "ran and passed"
        else:
            kind, tip = "skipped", "not run (the rule has no such section, or an earlier step stopped it)"
        out.append(f'<span class="step {kind}" title="{step}: {tip}">{step}</span>')
    return "".join(out)


# --------------------------------------------------------------------------- pictures


def _pictures(report: Report, change: GraphChange, anchor: str, title: str, drawn: Dict[tuple, tuple]) -> str:
    """The pictures of one report's graph, or a link to where the same pictures already are."""
    before, after = report.before, report.after
    if not (before and before.nodes) and not (after and after.nodes):
        return "<p>The graph was not recorded.</p>"
    if same_graph(before, after) or not (after and after.nodes) or not (before and before.nodes):
        only = before if before and before.nodes else after
        note = "unchanged by the rules" if same_graph(before, after) else "the only one recorded"
        views = [("the graph", note, only, "before")]
    else:
        views = [("before the rules", "", before, "before"), ("after the rules", "", after, "after")]
    key = tuple((tuple(v[2].nodes), v[3]) for v in views) + (_marks_key(report.candidates),)
    if key in drawn:
        where, title = drawn[key]
        return f'<p>The same graph, with the same candidates, is drawn under <a href="#{where}">{escape(title)}</a>.</p>'
    drawn[key] = (anchor, title)
    largest = max(len(v[2].nodes) for v in views)
    big = largest > collapse.COLLAPSE_ABOVE
    figures = [_figure(report, change, v, f"{anchor}-{i}", big) for i, v in enumerate(views)]
    out = ['<div class="pictures">' + "".join(figures) + "</div>"]
    if big and largest > FULL_DRAWING_MAX:
        out.append(f"<p>The full graph ({largest} nodes) is too large to draw whole: its code is below.</p>")
    elif big:
        full = [_figure(report, change, v, f"{anchor}-full-{i}", False) for i, v in enumerate(views)]
        total = ", ".join(f"{v[0]}: {len(v[2].nodes)} nodes" for v in views)
        out.append(f"<details><summary>the full graph{'s' if len(views) > 1 else ''}, nothing collapsed "
                   f"({total})</summary><div class=\"pictures\">{''.join(full)}</div></details>")
    return "\n".join(out)


def _marks_key(candidates: Sequence[Candidate]) -> tuple:
    return tuple(sorted((c.node, c.rule, c.stopped_at or "") for c in candidates))


def _figure(report: Report, change: GraphChange, view, uid: str, collapsed: bool) -> str:
    caption, note, snapshot, side = view
    pic = draw(snapshot, change, side, report.candidates, uid, collapsed, caption)
    extra = [note] if note else []
    if pic.hidden:
        extra.append(f"{pic.hidden} of {len(snapshot.nodes)} nodes collapsed into grey boxes")
    note_html = f' <span class="note">({escape("; ".join(extra))})</span>' if extra else ""
    return f"<figure><figcaption>{escape(caption)}{note_html}</figcaption>{pic.svg}</figure>"


# --------------------------------------------------------------------------- code


def _code(report: Report, change: GraphChange) -> str:
    if same_graph(report.before, report.after):
        blocks = [("graph code", report.before, "before")]
    else:
        blocks = [("graph code before", report.before, "before"), ("graph code after", report.after, "after")]
    return "".join(f"<details><summary>{name}</summary><pre>{escape(chr(10).join(graph_lines(s, change, side)))}"
                   "</pre></details>" for name, s, side in blocks)
