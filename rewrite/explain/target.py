"""``FILE.py::FUNCTION``, as the ``rewrite explain`` command names what to explain: the function,
its inputs and its corpus settings."""
from __future__ import annotations

from pathlib import Path
from typing import Callable, Optional, Tuple

from rewrite.explain.html import render_html
from rewrite.explain.run import explain_reports
from rewrite.explain.text import render_text
from rewrite.testing.case import CaseFormatError, load_module, parse_case
from rewrite.testing.execute import fresh_inputs


class TargetError(ValueError):
    """``FILE.py::FUNCTION`` does not name a function with inputs."""


def load_target(spec: str) -> Tuple[Callable, tuple, str, dict]:
    """``(fn, inputs, function name, settings)`` for ``FILE.py::FUNCTION`` (FUNCTION defaults to
    ``fn``).  Inputs come from ``<FUNCTION>_inputs()`` or else ``inputs()``; settings (mode,
    dynamic, auto_functionalized) from the file's corpus header when it has one."""
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
        settings = {"mode": case.mode, "dynamic": case.dynamic_modes[0],   # "both": the static run
                    "auto_functionalized": case.auto_functionalized}
    except CaseFormatError:
        pass  # not a corpus case: inputs decide the mode
    try:
        inputs = fresh_inputs(make_inputs)
    except Exception as exc:  # noqa: BLE001 - the user's input function failed
        raise TargetError(f"{file}: {make_inputs.__name__}() failed: {type(exc).__name__}: {exc}") from None
    return fn, inputs, function, settings


def explain_target(spec: str, base: str = "eager", rules=None, html: bool = False) -> Tuple[str, Optional[str]]:
    """The text (and, with ``html``, the page) explaining ``FILE.py::FUNCTION``."""
    fn, inputs, _, settings = load_target(spec)
    reports = explain_reports(fn, *inputs, base=base, rules=rules, **settings)
    title = f"{spec} [{base}]"
    return render_text(reports, title=title), (render_html(reports, title=title) if html else None)
