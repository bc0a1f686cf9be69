"""Rule coverage of a fuzz run, and steering generation toward what is not covered yet.

Coverage items of a rule, from the candidates the rewrite backend reports
(:class:`rewrite.engine.report.Candidate`): each section it has (``match``, ``where``,
``profitable``, ``safe``) *reached* and *stopped there*, and *fired*.  After each batch of
programs (in program order, so a run is reproducible), a program that covered an item no earlier
program had raises the weight of every generator choice it made (its knobs, see
:mod:`rewrite.fuzz.features`) and joins a pool of parents; a program that came within one step of
an uncovered item (it reached the section before one never reached, passed a section that never
stopped anything, reached the last section of a rule that never fired) joins that item's
frontier and raises its knobs a little.  Half of the steered programs are mutations
(:func:`rewrite.fuzz.generator.mutate`) of a parent from the frontier of an uncovered item (or
from the pool).  Multipliers decay toward 1 so that early luck does not dominate.
"""
from __future__ import annotations

import os
import random
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Sequence, Set, Tuple

from rewrite.lang.loader import expand
from rewrite.testing.console import shipped_rule_files
from rewrite.testing.coverage import RuleInfo, rule_catalog

NEW_ITEM_BOOST = 0.3       # multiplier increase per knob of a program that covered something new
NEAR_BOOST = 0.03          # ... of a program where a not-fully-covered rule was a candidate
MAX_MULTIPLIER = 5.0
DECAY = 0.97               # per batch, toward 1
POOL_SIZE = 48
FRONTIER_SIZE = 16
MUTATE_SHARE = 0.5         # share of steered programs mutated from a pool parent

Item = Tuple[str, str, str]   # (rule, "reached"|"stopped"|"fired", section or "")


def rule_files(rules: Optional[Sequence[str]]) -> List[Path]:
    """The rule files a run uses: the given files (folders expanded), else the shipped ones."""
    files = shipped_rule_files() if not rules else [Path(f) for f in expand(rules)[0]]
    return [_relative(f) for f in files]


def _relative(path: Path) -> Path:
    """``path`` relative to the working directory when it lies below it (shorter locations)."""
    try:
        rel = os.path.relpath(path)
    except ValueError:   # another drive
        return Path(path)
    return Path(rel) if not rel.startswith("..") else Path(path)


@dataclass
class Coverage:
    """Per rule and section: how many programs reached it, were stopped there; how many fired
    the rule."""

    catalog: List[RuleInfo]
    reached: Counter = field(default_factory=Counter)     # (rule, section) -> programs
    stopped: Counter = field(default_factory=Counter)
    fired: Counter = field(default_factory=Counter)       # rule -> programs
    seen: Set[Item] = field(default_factory=set)

    @classmethod
    def for_rules(cls, rules: Optional[Sequence[str]]) -> "Coverage":
        return cls(rule_catalog(rule_files(rules)))

    @property
    def rule_names(self) -> Set[str]:
        return {r.name for r in self.catalog}

    def items_of(self, candidates: Iterable) -> Set[Item]:
        sections = {r.name: set(r.sections) for r in self.catalog}
        out: Set[Item] = set()
        for c in candidates:
            if c.rule not in sections:
                continue
            out |= {(c.rule, "reached", s) for s in c.reached if s in sections[c.rule]}
            if c.fired:
                out.add((c.rule, "fired", ""))
            elif c.stopped_at in sections[c.rule]:
                out.add((c.rule, "stopped", c.stopped_at))
        return out

    def add(self, candidates: Iterable) -> Set[Item]:
        """Count one program's candidates; return the items no earlier program covered."""
        items = self.items_of(candidates)
        for rule, what, section in items:
            if what == "reached":
                self.reached[(rule, section)] += 1
            elif what == "stopped":
                self.stopped[(rule, section)] += 1
            else:
                self.fired[rule] += 1
        new = items - self.seen
        self.seen |= items
        return new

    def wanted(self) -> Set[Item]:
        out: Set[Item] = set()
        for r in self.catalog:
            out |= {(r.name, "reached", s) for s in r.sections}
            out |= {(r.name, "stopped", s) for s in r.sections if s != "match" or r.match_can_reject}
            out.add((r.name, "fired", ""))
        return out

    def uncovered(self) -> Set[Item]:
        return self.wanted() - self.seen

    def table(self) -> str:
        lines = ["rule coverage (programs that reached each section / were stopped there; fired)"]
        for r in self.catalog:
            lines.append(f"  {r.name} ({r.location}): fired in {self.fired[r.name]}")
            for s in r.sections:
                reached, stopped = self.reached[(r.name, s)], self.stopped[(r.name, s)]
                note = "   <- never reached" if not reached else (
                    "   <- never stopped" if not stopped and (s != "match" or r.match_can_reject) else "")
                lines.append(f"    {s:<11} reached {reached:>5}  stopped {stopped:>5}{note}")
        missing = self.uncovered()
        lines.append(f"{len(self.wanted()) - len(missing)}/{len(self.wanted())} coverage items covered")
        return "\n".join(lines)

    def to_json(self) -> List[dict]:
        return [{"rule": r.name, "location": r.location, "fired": self.fired[r.name],
                 "sections": {s: {"reached": self.reached[(r.name, s)], "stopped": self.stopped[(r.name, s)]}
                              for s in r.sections}} for r in self.catalog]


@dataclass
class SteerState:
    """What a worker needs to generate one steered program."""

    multipliers: Dict[str, float] = field(default_factory=dict)
    parent: object = None          # a Program to mutate, or None for a fresh one
    target: str = ""               # the coverage item the parent was chosen for (reporting)


class Steering:
    """Knob multipliers, plus parents to mutate: for every coverage item still uncovered, the
    recent programs on its *frontier* (they reached the section before a section never reached,
    or passed a section that never stopped anything, or reached a rule's last section when it
    never fired), and the recent programs that covered something new."""

    def __init__(self, coverage: Coverage):
        self.coverage = coverage
        self.multipliers: Dict[str, float] = {}
        self.pool: list = []
        self.frontier: Dict[Item, list] = {}

    def task_state(self, seed: int, index: int) -> SteerState:
        rng = random.Random(f"rewrite-fuzz-steer/{seed}/{index}")
        state = SteerState(dict(self.multipliers))
        if rng.random() >= MUTATE_SHARE:
            return state
        open_items = sorted(item for item in self.coverage.uncovered() if self.frontier.get(item))
        if open_items:
            item = rng.choice(open_items)
            state.parent, state.target = rng.choice(self.frontier[item]), ":".join(i for i in item if i)
        elif self.pool:
            state.parent, state.target = rng.choice(self.pool), "new coverage"
        return state

    def observe(self, program, new_items: Set[Item], candidates: Sequence) -> None:
        """Credit the knobs of ``program`` for what its run covered; file it on the frontier of
        the items it came close to."""
        knobs = set(program.knobs)
        if new_items:
            for k in knobs:
                self.multipliers[k] = min(MAX_MULTIPLIER, self.multipliers.get(k, 1.0) + NEW_ITEM_BOOST)
            self.pool.append(program)
            del self.pool[:-POOL_SIZE]
        near = self._near(candidates)
        if near and not new_items:
            for k in knobs:
                self.multipliers[k] = min(MAX_MULTIPLIER, self.multipliers.get(k, 1.0) + NEAR_BOOST)
        for item in near:
            lst = self.frontier.setdefault(item, [])
            lst.append(program)
            del lst[:-FRONTIER_SIZE]

    def _near(self, candidates: Sequence) -> Set[Item]:
        """Uncovered items this program's candidates came within one step of."""
        sections = {r.name: r.sections for r in self.coverage.catalog}
        open_items = self.coverage.uncovered()
        out: Set[Item] = set()
        for c in candidates:
            secs = sections.get(c.rule)
            if secs is None:
                continue
            reached = [s for s in secs if s in c.reached]
            for k, s in enumerate(secs):
                if k and secs[k - 1] in reached and s not in reached:
                    out.add((c.rule, "reached", s))
                if s in reached and c.stopped_at != s:
                    out.add((c.rule, "stopped", s))
            if reached and reached[-1] == secs[-1]:
                out.add((c.rule, "fired", ""))
        return out & open_items

    def end_batch(self) -> None:
        self.multipliers = {k: 1.0 + (m - 1.0) * DECAY for k, m in self.multipliers.items()}
