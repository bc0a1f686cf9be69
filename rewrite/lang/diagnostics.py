"""Diagnostics: what the parser, checker and loader report, and how it is shown to a user.

Every problem is one :class:`Diagnostic`; :func:`format_diagnostic` renders it the way compilers
do (``path:line:col: error: message``, the source line, a caret, an optional ``hint:`` line), so
bad rule input never surfaces as a Python traceback.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, List, Mapping, Optional

from rewrite.lang.ast import Span

ERROR = "error"
WARNING = "warning"


@dataclass(frozen=True)
class Diagnostic:
    severity: str
    message: str
    span: Optional[Span]
    hint: Optional[str] = None
    path: Optional[str] = None  # for file-level problems that have no span

    @property
    def is_error(self) -> bool:
        return self.severity == ERROR

    @property
    def file(self) -> str:
        return self.span.file if self.span is not None else (self.path or "<unknown>")

    def sort_key(self):
        span = self.span
        return (self.file, span.line if span else 0, span.col if span else 0)


def error(message: str, span: Optional[Span], hint: Optional[str] = None, path: Optional[str] = None) -> Diagnostic:
    return Diagnostic(ERROR, message, span, hint, path)


def warning(message: str, span: Optional[Span], hint: Optional[str] = None) -> Diagnostic:
    return Diagnostic(WARNING, message, span, hint)


def format_diagnostic(diag: Diagnostic, sources: Mapping[str, str]) -> str:
    """``path:line:col: severity: message``, then the source line with a caret under the column
    (and ``~`` under the rest of a one-line span), then ``  hint: ...`` if there is one."""
    span = diag.span
    if span is None or span.line <= 0:
        head = f"{diag.file}: {diag.severity}: {diag.message}"
        return head + (f"\n  hint: {diag.hint}" if diag.hint else "")
    lines = [f"{span.file}:{span.line}:{span.col}: {diag.severity}: {diag.message}"]
    text = sources.get(span.file)
    if text is not None:
        src_lines = text.splitlines()
        if span.line <= len(src_lines):
            src = src_lines[span.line - 1]
            lines.append(src)
            prefix = "".join(c if c == "\t" else " " for c in src[: span.col - 1])
            width = 1
            if span.end_line == span.line and span.end_col > span.col:
                width = min(span.end_col - span.col, max(1, len(src) - span.col + 1))
            lines.append(prefix + "^" + "~" * (width - 1))
    if diag.hint:
        lines.append(f"  hint: {diag.hint}")
    return "\n".join(lines)


def format_report(diags: Iterable[Diagnostic], sources: Mapping[str, str]) -> str:
    return "\n".join(format_diagnostic(d, sources) for d in diags)


def sort_diagnostics(diags: Iterable[Diagnostic]) -> List[Diagnostic]:
    return sorted(diags, key=Diagnostic.sort_key)


class RulesError(Exception):
    """Raised by the loader when rule files have errors.  ``str()`` is the formatted report."""

    def __init__(self, diagnostics: List[Diagnostic], sources: Mapping[str, str]):
        self.diagnostics = list(diagnostics)
        self.sources = dict(sources)
        super().__init__(format_report(self.diagnostics, self.sources))
