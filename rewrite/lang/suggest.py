""""Did you mean" for unknown names, bounded: candidates are filtered by length before difflib
compares them, and a run computes at most :data:`MAX_SUGGESTIONS` suggestions (a file with
thousands of unknown names is reported without one for each: only the first diagnostics are
shown anyway)."""
from __future__ import annotations

import difflib
from typing import Iterable, Optional

from rewrite.lang.limits import MAX_SHOWN

MAX_SUGGESTIONS = MAX_SHOWN


class Suggester:
    def __init__(self, budget: int = MAX_SUGGESTIONS):
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
