"""Diagnostics: what the parser, checker and loader report, and how it is shown to a user.

Every problem is one :class:`Diagnostic`; :func:`format_diagnostic` renders it the way compilers
do (``path:line:col: error: message``, the source line, a caret, an optional ``hint:`` line), so
bad rule input never surfaces as a Python traceback.  Reports are bounded: at most
:data:`MAX_SHOWN` diagnostics are printed (the rest are counted) and as many "did you mean"
suggestions computed (:class:`Suggester`).

Lines are numbered by ``\\n`` alone, as the lexer counts them (:class:`LineTable`), so everything
that turns an offset into a line or shows a line (spans, diagnostics, ``fmt``) agrees: a form
feed, ``\\v`` or U+2028 inside a line never moves a caret.  A ``\\r`` before the ``\\n`` is not
part of the shown line.
"""
from __future__ import annotations

import bisect
import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, List, Mapping, Optional, Tuple

from rewrite.lang.ast import Span

ERROR = "error"
WARNING = "warning"
MAX_SHOWN = 200          # diagnostics printed per report, and "did you mean" suggestions per check
MAX_LINE_SHOWN = 200     # longest source line shown under a diagnostic (a longer one is cut around the caret)


# --------------------------------------------------------------------------- lines

_NEWLINE = re.compile("\n")


class LineTable:
    def __init__(self, text: str):
        self.text = text
        self.starts: List[int] = [0] + [m.end() for m in _NEWLINE.finditer(text)]

    def __len__(self) -> int:
        """Number of lines (a text ending in ``\\n`` has an empty last line)."""
        return len(self.starts)

    def position(self, offset: int) -> Tuple[int, int]:
        """1-based (line, column) of ``offset``; columns count code points."""
        i = bisect.bisect_right(self.starts, offset) - 1
        return i + 1, offset - self.starts[i] + 1

    def line(self, n: int) -> Optional[str]:
        """Line ``n`` (1-based) without its ``\\n`` (and ``\\r``), or None past the end."""
        if not 1 <= n <= len(self.starts):
            return None
        end = self.starts[n] - 1 if n < len(self.starts) else len(self.text)
        text = self.text[self.starts[n - 1]:end]
        return text[:-1] if text.endswith("\r") else text


@lru_cache(maxsize=4)
def line_table(text: str) -> LineTable:
    """The table of ``text``, built once (a report with many diagnostics in one big file asks for
    it once per diagnostic)."""
    return LineTable(text)


# --------------------------------------------------------------------------- diagnostics


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


# --------------------------------------------------------------------------- "did you mean"


class Suggester:
    """"Did you mean" for unknown names, bounded: candidates are filtered by length before
    difflib compares them, and one check computes at most ``budget`` suggestions (a file with
    thousands of unknown names is reported without one for each: only the first diagnostics are
    shown anyway)."""

    def __init__(self, budget: int = MAX_SHOWN):
        self.budget = budget

    def close(self, word: str, candidates: Iterable[str], cutoff: float = 0.6) -> Optional[str]:
        """The candidate most like ``word`` (difflib ratio >= ``cutoff``), or None; None without
        looking once the budget is spent."""
        if self.budget <= 0:
            return None
        self.budget -= 1
        # ratio = 2 * matches / (len(a) + len(b)) <= 2 * min / (len(a) + len(b)): lengths that
        # cannot reach the cutoff are skipped before difflib looks at them.
        n = len(word)
        near = [c for c in candidates if 2 * min(n, len(c)) >= cutoff * (n + len(c))]
        found = difflib.get_close_matches(word, near, n=1, cutoff=cutoff)
        return found[0] if found else None
