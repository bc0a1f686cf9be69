"""The summary table printed after a corpus run."""
from __future__ import annotations

from typing import List, Sequence

from rewrite.testing.runner import CaseResult

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
