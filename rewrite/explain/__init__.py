"""``rewrite explain``: what the rules did to one function's graphs and why, as text
(:mod:`~rewrite.explain.text`) or as a self-contained HTML page with pictures of the graphs
(:mod:`~rewrite.explain.html`).  Everything is drawn from the reports' data
(:class:`~rewrite.engine.report.Report`, :class:`~rewrite.engine.report.GraphSnapshot`)."""
from rewrite.explain.html import render_html
from rewrite.explain.run import explain, explain_reports
from rewrite.explain.target import TargetError, explain_target, load_target
from rewrite.explain.text import render_text

__all__ = ["TargetError", "explain", "explain_reports", "explain_target", "load_target", "render_html",
           "render_text"]
