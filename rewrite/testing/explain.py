"""``rewrite explain``: compile one function with the rules and say what happened to its graphs.

API: :func:`explain` returns the text; :func:`explain_reports` the raw reports;
:func:`explain_target` serves the command (``FILE.py::FUNCTION``)."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, List, Optional, Sequence, Tuple

import torch
from torch.utils._pytree import tree_flatten

from rewrite.engine.report import Candidate, Report
from rewrite.stages import STEPS as STAGES


class TargetError(ValueError):
    """``FILE.py::FUNCTION`` does not name a function with inputs."""


def _mode_for(inputs: Sequence) -> str:
    flat, _ = tree_flatten(list(inputs))
    return "training" if any(isinstance(t, torch.Tensor) and t.requires_grad for t in flat) else "inference"


def explain_reports(fn: Callable, *inputs, base: str = "eager", rules=None, mode: Optional[str] = None,
                    dynamic: bool = False) -> List[Report]:
    """Compile ``fn`` with the rules (under inference_mode unless an input requires grad, or as
    ``mode`` says), call it once on ``inputs`` and return the reports."""
    from rewrite.backend import make_backend
    from rewrite.testing.execute import mode_context

    torch._dynamo.reset()
    backend = make_backend(rules=rules, base=base, cache=False)  # every graph rewritten and reported
    compiled = torch.compile(fn, backend=backend, fullgraph=True, dynamic=dynamic)
    mode = mode or _mode_for(inputs)
    with mode_context(mode):
        compiled(*inputs)
    return list(backend.reports)


def explain(fn: Callable, *inputs, base: str = "eager", rules=None, mode: Optional[str] = None,
            dynamic: bool = False) -> str:
    """The explanation of what the rules did to ``fn``'s graphs, as text."""
    name = getattr(fn, "__name__", "fn")
    return render_text(explain_reports(fn, *inputs, base=base, rules=rules, mode=mode, dynamic=dynamic),
                       title=f"{name} [{base}]")


# --------------------------------------------------------------------------- text


def rule_source_line(location: str) -> str:
    """The text of the rule file line a candidate's ``location`` ("file:line") points at."""
    path, _, line = location.rpartition(":")
    try:
        return Path(path).read_text().splitlines()[int(line) - 1].strip()
    except (OSError, ValueError, IndexError):
        return ""


def candidate_lines(c: Candidate) -> List[str]:
    lines = [c.line()]
    reached = ", ".join(s for s in STAGES if s in c.reached) or "-"
    stage = "fired" if c.fired else f"stopped at {c.stopped_at}"
    lines.append(f"    {stage}; reached: {reached}")
    src = rule_source_line(c.location)
    if src:
        lines.append(f"    rule source ({c.location}): {src}")
    return lines


def render_report(report: Report) -> str:
    out = [f"== {report.graph} graph: {len(report.fired)} fired, {len(report.rejected)} rejected, "
           f"~{report.bytes_removed} bytes of clone/copy traffic removed per call =="]
    if report.graph != "dynamo" or report.graph_before != report.graph_after:
        out += ["-- before the rules --", report.graph_before.rstrip() or "(graph text not recorded)",
                "-- after the rules --", report.graph_after.rstrip() or "(graph text not recorded)"]
    out.append("-- candidates --")
    if report.candidates:
        for c in report.candidates:
            out += ["  " + line for line in candidate_lines(c)]
    else:
        out.append("  (no rule matched any node)")
    out += [f"  warning: {w}" for w in report.warnings]
    return "\n".join(out)


def render_text(reports: Sequence[Report], title: str = "") -> str:
    total = sum(r.bytes_removed for r in reports)
    head = [f"rewrite explain: {title}" if title else "rewrite explain",
            f"{len(reports)} graph(s); {sum(len(r.fired) for r in reports)} rewrite(s) fired; "
            f"estimated clone/copy traffic removed: {total} bytes per call"]
    return "\n\n".join(["\n".join(head)] + [render_report(r) for r in reports])


# --------------------------------------------------------------------------- FILE.py::FUNCTION


def load_target(spec: str) -> Tuple[Callable, tuple, str, dict]:
    """``(fn, inputs, function name, settings)`` for ``FILE.py::FUNCTION`` (FUNCTION defaults to
    ``fn``).  Inputs come from ``<FUNCTION>_inputs()`` or else ``inputs()``; settings (mode,
    dynamic) from the file's corpus header when it has one."""
    from rewrite.testing.case import CaseFormatError, load_module, parse_case
    from rewrite.testing.execute import fresh_inputs

    file, _, function = spec.partition("::")
    function = function or "fn"
    path = Path(file)
    if not path.is_file():
        raise TargetError(f"{file}: no such file")
    try:
        module = load_module(path)
    except Exception as exc:  # noqa: BLE001 - the user's file failed to import
        raise TargetError(f"{file}: cannot be imported: {type(exc).__name__}: {exc}") from None
    fn = getattr(module, function, None)
    if not callable(fn):
        names = sorted(n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
                       and getattr(v, "__module__", None) == module.__name__)
        raise TargetError(f"{file} has no function {function!r} (functions: {', '.join(names) or 'none'})")
    make_inputs = getattr(module, f"{function}_inputs", None) or getattr(module, "inputs", None)
    if not callable(make_inputs):
        raise TargetError(f"{file} defines neither {function}_inputs() nor inputs() to make the inputs")
    settings = {}
    try:
        case = parse_case(path)
        settings = {"mode": case.mode, "dynamic": case.dynamic}
    except CaseFormatError:
        pass  # not a corpus case: inputs decide the mode
    return fn, fresh_inputs(make_inputs), function, settings


def explain_target(spec: str, base: str = "eager", rules=None, html: bool = False) -> Tuple[str, Optional[str]]:
    fn, inputs, name, settings = load_target(spec)
    reports = explain_reports(fn, *inputs, base=base, rules=rules, **settings)
    title = f"{spec} [{base}]"
    text = render_text(reports, title=title)
    page = None
    if html:
        from rewrite.testing.html_page import render_html

        page = render_html(reports, title=title)
    return text, page
