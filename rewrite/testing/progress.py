"""A progress bar on stderr: redrawn in place on a terminal, one line per case otherwise."""
from __future__ import annotations

import sys
from typing import Optional, TextIO

from rewrite.testing.runner import CaseResult


class Progress:
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
