"""Printing a corpus run: failing cases in detail, the summary table, optional coverage."""
from __future__ import annotations

import sys
from pathlib import Path
from typing import List, Optional, Sequence, TextIO

from rewrite.testing import coverage as cov
from rewrite.testing.runner import CaseResult
from rewrite.testing.summary import SLOW_SECONDS, table


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
