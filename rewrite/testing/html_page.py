"""The self-contained HTML page of ``rewrite explain --html``: inline CSS, inline SVG pictures of
every post-grad graph before and after the rules, the candidates, the graph code."""
from __future__ import annotations

from html import escape
from typing import Sequence

from rewrite.engine.report import Report
from rewrite.stages import STEPS as STAGES
from rewrite.testing.explain import rule_source_line
from rewrite.testing.graphtext import changed_names, snapshot_graph
from rewrite.testing.svg import graph_svg

CSS = """
body { font-family: system-ui, sans-serif; margin: 24px; color: #202124; }
h1 { font-size: 20px; } h2 { font-size: 17px; margin-top: 32px; border-bottom: 1px solid #dadce0; }
table { border-collapse: collapse; margin: 8px 0; font-size: 13px; }
td, th { border: 1px solid #dadce0; padding: 4px 8px; text-align: left; vertical-align: top; }
tr.fired td { background: #e6f4ea; } tr.rejected td { background: #fef7e0; }
.pictures { display: flex; gap: 24px; flex-wrap: wrap; align-items: flex-start; }
.pictures figure { margin: 0; overflow-x: auto; max-width: 100%; }
figcaption { font-weight: bold; margin-bottom: 4px; }
pre { background: #f8f9fa; padding: 8px; overflow-x: auto; font-size: 12px; }
code { font-size: 12px; }
.summary { font-size: 14px; }
"""


def _candidates_table(report: Report) -> str:
    if not report.candidates:
        return "<p>No rule matched any node.</p>"
    rows = ["<tr><th>rule</th><th>source</th><th>node</th><th>outcome</th><th>reached</th><th>why / what</th></tr>"]
    for c in report.candidates:
        outcome = "fired" if c.fired else f"stopped at {c.stopped_at}"
        detail = (f"removed {', '.join(c.before) or '-'}; added {', '.join(c.after) or '-'}" if c.fired
                  else c.reason)
        src = rule_source_line(c.location)
        rows.append(f'<tr class="{"fired" if c.fired else "rejected"}"><td>{escape(c.rule)}</td>'
                    f"<td><code>{escape(c.location)}</code>" + (f"<br><code>{escape(src)}</code>" if src else "")
                    + f"</td><td><code>{escape(c.node)}</code></td><td>{escape(outcome)}</td>"
                    f"<td>{escape(', '.join(s for s in STAGES if s in c.reached))}</td><td>{escape(detail)}</td></tr>")
    return "<table>" + "".join(rows) + "</table>"


def _report_section(report: Report) -> str:
    parts = [f"<h2>{escape(report.graph)} graph</h2>",
             f'<p class="summary">{len(report.fired)} fired, {len(report.rejected)} rejected; '
             f"estimated clone/copy traffic removed: {report.bytes_removed} bytes per call</p>",
             _candidates_table(report)]
    if report.graph_before or report.graph_after:
        before, after = snapshot_graph(report.before), snapshot_graph(report.after)
        changed = changed_names(before, after)
        parts.append('<div class="pictures">'
                     f"<figure><figcaption>before the rules</figcaption>{graph_svg(before, changed, 'before')}</figure>"
                     f"<figure><figcaption>after the rules</figcaption>{graph_svg(after, changed, 'after')}</figure>"
                     "</div>")
        parts.append(f"<details><summary>graph code before</summary><pre>{escape(report.graph_before)}</pre></details>")
        parts.append(f"<details><summary>graph code after</summary><pre>{escape(report.graph_after)}</pre></details>")
    for w in report.warnings:
        parts.append(f"<p>warning: {escape(w)}</p>")
    return "\n".join(parts)


def render_html(reports: Sequence[Report], title: str = "rewrite explain") -> str:
    total = sum(r.bytes_removed for r in reports)
    fired = sum(len(r.fired) for r in reports)
    body = [f"<h1>{escape(title)}</h1>",
            f'<p class="summary">{len(reports)} graph(s); {fired} rewrite(s) fired; estimated clone/copy '
            f"traffic removed: {total} bytes per call. Orange boxes: nodes the rules removed or added.</p>"]
    body += [_report_section(r) for r in reports]
    return ("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{CSS}</style></head><body>\n"
            + "\n".join(body) + "\n</body></html>\n")
