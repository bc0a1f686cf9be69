"""What one application of a rule set to one graph did: every candidate, where it stopped and
why, and what fired.  This is the data behind the why-not trace, ``rewrite explain`` and the
corpus expectations."""
from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from typing import List, Optional, Tuple

log = logging.getLogger("rewrite")
trace_log = logging.getLogger("rewrite.trace")


def _log_from_environment() -> None:
    """``REWRITE_LOG=info`` prints fired rules to stderr; ``REWRITE_LOG=trace`` adds every
    rejected candidate with the predicate that stopped it."""
    level = os.environ.get("REWRITE_LOG", "").lower()
    if level in ("info", "trace", "debug") and not log.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(name)s: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.DEBUG if level in ("trace", "debug") else logging.INFO)


_log_from_environment()

# The stages a candidate passes through, in order.  ``rewrite`` means the action ran and the
# result validated; a candidate "stopped at rewrite" had its action fail and was rolled back.
STAGES = ("match", "where", "profitable", "safe", "rewrite")


@dataclass
class Candidate:
    rule: str
    location: str            # "rules/reinplace.rules:7" (file:line of the rule)
    node: str                # name of the root node the rule was tried on
    graph: str               # which graph: "forward", "backward", "inference", "dynamo", a subgraph name
    stopped_at: Optional[str]  # one of STAGES, or None when the rule fired
    reason: str = ""         # e.g. "alias_used_between(arg0_1, slice_scatter, copy_) is true (index_select at node 4)"
    reached: Tuple[str, ...] = ()  # stages whose check ran (for coverage)
    before: Tuple[str, ...] = ()   # fired: names of the nodes the rewrite removed or replaced
    after: Tuple[str, ...] = ()    # fired: names of the nodes it created

    @property
    def fired(self) -> bool:
        return self.stopped_at is None

    def line(self) -> str:
        head = f"{self.rule} @ {self.location} on {self.node} [{self.graph}]"
        if self.fired:
            return f"{head}: fired; removed {', '.join(self.before) or '-'}; added {', '.join(self.after) or '-'}"
        return f"{head}: rejected by {self.stopped_at}: {self.reason}"


@dataclass
class Report:
    graph: str                                  # "inference", "forward", "backward", "dynamo"
    candidates: List[Candidate] = field(default_factory=list)
    graph_before: str = ""                      # readable code of the graph before the pass
    graph_after: str = ""                       # and after
    ops_before: dict = field(default_factory=dict)  # op name ("aten.slice_scatter") -> count
    ops_after: dict = field(default_factory=dict)
    bytes_removed: int = 0                      # estimated clone/copy traffic removed per call
    iterations: int = 0
    warnings: List[str] = field(default_factory=list)

    @property
    def fired(self) -> List[Candidate]:
        return [c for c in self.candidates if c.fired]

    @property
    def rejected(self) -> List[Candidate]:
        return [c for c in self.candidates if not c.fired]

    def fired_rules(self) -> List[str]:
        return [c.rule for c in self.fired]

    def summary(self) -> str:
        lines = [f"[{self.graph}] {len(self.fired)} fired, {len(self.rejected)} rejected"]
        lines += ["  " + c.line() for c in self.candidates]
        lines += ["  warning: " + w for w in self.warnings]
        return "\n".join(lines)
