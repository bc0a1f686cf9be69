"""What a corpus run prints: a progress bar while it runs, then the failing cases in detail, the
summary table and, optionally, rule coverage."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional, Sequence, TextIO

from rewrite.testing import coverage as cov
from rewrite.testing.runner import CaseResult

# --------------------------------------------------------------------------- progress, on stderr


class Progress:
    """A progress bar on stderr: redrawn in place on a terminal, one line per case otherwise."""

    def __init__(self, total: int, stream: Optional[TextIO] = None, width: int = 30,
                 tty: Optional[bool] = None):
        self.total = total
        self.done = 0
        self.failed = 0
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.tty = self.stream.isatty() if tty is None else tty

    def update(self, result: CaseResult) -> None:
        self.done += 1
        self.failed += not result.ok
        if self.tty:
            filled = self.width * self.done // max(1, self.total)
            bar = "#" * filled + "." * (self.width - filled)
            failed = f" {self.failed} failed" if self.failed else ""
            self.stream.write(f"\r[{bar}] {self.done}/{self.total}{failed}  {result.case_id[:40]:<40}")
            if self.done == self.total:
                self.stream.write("\n")
        else:
            self.stream.write(f"[{self.done}/{self.total}] {result.status.upper():5} "
                              f"{result.case_id} ({result.seconds:.1f}s)\n")
        self.stream.flush()


# --------------------------------------------------------------------------- the summary table


SLOW_SECONDS = 5.0
MAX_CELL = 48


def is_slow(result: CaseResult, threshold: float = SLOW_SECONDS) -> bool:
    return result.declared_slow or result.seconds >= threshold


def _cell(text: str) -> str:
    return text if len(text) <= MAX_CELL else text[: MAX_CELL - 3] + "..."


def table(results: Sequence[CaseResult], threshold: float = SLOW_SECONDS) -> str:
    header = ["case", "rule", "expected", "got", "time", "status"]
    rows: List[List[str]] = [header]
    for r in results:
        time = f"{r.seconds:.1f}s" + (" slow" if is_slow(r, threshold) else "")
        rows.append([r.case_id, _cell(", ".join(r.rules) or "-"), _cell(r.expected), _cell(r.got),
                     time, r.status.upper()])
    widths = [max(len(row[i]) for row in rows) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    passed = sum(r.ok for r in results)
    slow = sum(is_slow(r, threshold) for r in results)
    total = sum(r.seconds for r in results)
    lines.append(f"{passed}/{len(results)} passed, {len(results) - passed} failed; "
                 f"{slow} slow (>= {threshold:g}s or marked); {total:.1f}s of case time")
    return "\n".join(lines)


# --------------------------------------------------------------------------- the whole run


def shipped_rule_files() -> List[Path]:
    """The rule files applied when no rules are given: the repository's rules/ directory, or the
    copy installed as the ``rewrite._rules`` package."""
    repo = Path(__file__).resolve().parents[2] / "rules"
    if repo.is_dir():
        return sorted(repo.glob("*.rules"))
    from importlib.resources import files

    return sorted(Path(str(p)) for p in files("rewrite._rules").iterdir() if str(p).endswith(".rules"))


def print_run(results: Sequence[CaseResult], coverage: bool = False, strict: bool = False,
              rules: Optional[Sequence[str]] = None, slow: Optional[float] = None,
              out: Optional[TextIO] = None) -> int:
    """Print the run and return the exit status: 1 when a case failed (or, with ``strict``,
    a rule is uncovered), else 0."""
    out = out if out is not None else sys.stdout
    failed = [r for r in results if not r.ok]
    for r in failed:
        print(r.details(), file=out)
        print(file=out)
    print(table(results, SLOW_SECONDS if slow is None else slow), file=out)
    status = 1 if failed else 0
    if coverage:
        files = [Path(p) for p in rules] if rules else shipped_rule_files()
        report = cov.compute(cov.rule_catalog(files), [(r.case_id, r.candidates) for r in results])
        print(file=out)
        print(cov.format_coverage(report), file=out)
        if strict and any(not c.covered for c in report):
            status = 1
    return status
