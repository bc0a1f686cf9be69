"""Diagnostics: what the parser, checker and loader report, and how it is shown to a user.

Every problem is one :class:`Diagnostic`; :func:`format_diagnostic` renders it the way compilers
do (``path:line:col: error: message``, the source line, a caret, an optional ``hint:`` line), so
bad rule input never surfaces as a Python traceback.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Iterable, List, Mapping, Optional

from rewrite.lang.ast import Span
from rewrite.lang.limits import MAX_SHOWN
from rewrite.lang.lines import line_table

ERROR = "error"
WARNING = "warning"
# Longest source line shown under a diagnostic (a longer one is cut around the caret).
MAX_LINE_SHOWN = 200


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
    src = line_table(text).line(span.line) if text is not None else None
    if src is not None:
        src, col = shown_line(src, span.col)
        lines.append(src)
        prefix = "".join(c if c == "\t" else " " for c in src[: col - 1])
        width = 1
        if span.end_line == span.line and span.end_col > span.col:
            width = min(span.end_col - span.col, max(1, len(src) - col + 1))
        lines.append(prefix + "^" + "~" * (width - 1))
    if diag.hint:
        lines.append(f"  hint: {diag.hint}")
    return "\n".join(lines)


def shown_line(src: str, col: int):
    """``(text, col)``: source line ``src`` as printed under a diagnostic at column ``col``, and
    the caret's column in it.  A line longer than MAX_LINE_SHOWN is cut to that many characters
    around the column; characters a terminal would act on are replaced (:func:`shown`)."""
    if len(src) > MAX_LINE_SHOWN:
        cut = max(0, min(col - 1 - MAX_LINE_SHOWN // 2, len(src) - MAX_LINE_SHOWN))
        src = src[cut:cut + MAX_LINE_SHOWN]
        col -= cut
    return shown(src), col


def shown(line: str) -> str:
    """A source line as printed: control and line/paragraph-separator characters (which a
    terminal would act on) become U+FFFD, one for one, so the caret below stays in its column."""
    return "".join("\ufffd" if c != "\t" and unicodedata.category(c) in ("Cc", "Zl", "Zp") else c
                   for c in line)


def format_report(diags: Iterable[Diagnostic], sources: Mapping[str, str], limit: int = MAX_SHOWN) -> str:
    """The first ``limit`` diagnostics in full, then one line counting the rest."""
    diags = list(diags)
    out = [format_diagnostic(d, sources) for d in diags[:limit]]
    rest = diags[limit:]
    if rest:
        out.append(more_line(rest, limit))
    return "\n".join(out)


def more_line(rest: List[Diagnostic], limit: int = MAX_SHOWN) -> str:
    errors = sum(d.is_error for d in rest)
    warnings = len(rest) - errors
    parts = [f"{errors} more error{'s' * (errors != 1)}"] if errors else []
    parts += [f"{warnings} more warning{'s' * (warnings != 1)}"] if warnings else []
    return f"... and {' and '.join(parts)} not shown (at most {limit} are shown)"


def sort_diagnostics(diags: Iterable[Diagnostic]) -> List[Diagnostic]:
    return sorted(diags, key=Diagnostic.sort_key)


class RulesError(Exception):
    """Raised by the loader when rule files have errors.  ``str()`` is the formatted report."""

    def __init__(self, diagnostics: List[Diagnostic], sources: Mapping[str, str]):
        self.diagnostics = list(diagnostics)
        self.sources = dict(sources)
        super().__init__(format_report(self.diagnostics, self.sources))
