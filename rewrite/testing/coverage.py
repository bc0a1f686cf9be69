"""Rule coverage of a corpus run: for every rule and every section it has, did some case reach
the section (``Candidate.reached``) and did some case get stopped by it (``stopped_at``)?

A rule is *uncovered* when one of its sections was never reached, when one of its sections never
stopped a candidate (no case shows that the check can say no), or when no case rejects it at all
(it has no negative case).  A dependency's `on` pattern names the op and binds its operands; it
cannot reject an op it names, so it only has to be reached; the same holds for a rule whose root
pattern only binds the op's operands (no literal, nested op, `input`/`const` kind or path that
needs a step)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Sequence, Tuple

from rewrite.engine.report import Candidate
from rewrite.lang import ast as A
from rewrite.lang.parser import parse

CHECK_SECTIONS = ("match", "where", "profitable", "safe")


@dataclass(frozen=True)
class RuleInfo:
    name: str
    location: str                     # "rules/reinplace.rules:17"
    sections: Tuple[str, ...]         # the checked sections the rule has, in stage order
    match_can_reject: bool = True


def sections_of(item) -> Tuple[str, ...]:
    if isinstance(item, A.Rule):
        return ("match",) + tuple(s for s in CHECK_SECTIONS[1:] if getattr(item, s) is not None)
    # A dependency is matched by its `on` pattern; its `mutates ... when` condition is its guard.
    return ("match", "where")


def match_can_reject(item) -> bool:
    """Can the root pattern (and path) of a rule or dependency reject a node of its root op?"""
    if isinstance(item, A.Rule) and item.path is not None and item.path.at_least_one:
        return True
    pattern = item.match.pattern if isinstance(item, A.Rule) else item.on.pattern
    return any(_constrains(p) for p in list(pattern.args) + [k.pattern for k in pattern.kwargs])


def _constrains(p) -> bool:
    if isinstance(p, A.Bind):
        return p.pattern is not None and _constrains(p.pattern)
    if isinstance(p, A.KindPattern):
        return p.kind in ("input", "const")
    return isinstance(p, (A.LiteralPattern, A.ListPattern, A.OpPattern))


def rule_catalog(paths: Iterable[Path]) -> List[RuleInfo]:
    """Every rule and dependency declared in the given rule files (includes are not followed:
    coverage is about the rules a file itself declares)."""
    out: List[RuleInfo] = []
    for path in map(Path, paths):
        module = parse(path.read_text(), str(path))
        for item in module.items:
            if isinstance(item, (A.Rule, A.Dependency)):
                out.append(RuleInfo(item.name, f"{path}:{item.span.line}", sections_of(item),
                                    match_can_reject(item)))
    return out


@dataclass
class SectionCoverage:
    section: str
    must_stop: bool = True
    reached_by: List[str] = field(default_factory=list)   # case ids
    stopped: List[str] = field(default_factory=list)

    @property
    def reached(self) -> bool:
        return bool(self.reached_by)


@dataclass
class RuleCoverage:
    rule: RuleInfo
    sections: List[SectionCoverage]
    fired_by: List[str] = field(default_factory=list)
    rejected_by: List[str] = field(default_factory=list)

    @property
    def problems(self) -> List[str]:
        out = [f"section `{s.section}` never reached" for s in self.sections if not s.reached]
        out += [f"section `{s.section}` never stopped a candidate" for s in self.sections
                if s.reached and s.must_stop and not s.stopped]
        if not self.rejected_by:
            out.append("no negative case (no case rejects it)")
        if not self.fired_by:
            out.append("no positive case (no case fires it)")
        return out

    @property
    def covered(self) -> bool:
        return not self.problems


def compute(rules: Sequence[RuleInfo], runs: Iterable[Tuple[str, Sequence[Candidate]]]) -> List[RuleCoverage]:
    """``runs``: (case id, candidates of its reports) for every case run."""
    table: Dict[str, RuleCoverage] = {
        r.name: RuleCoverage(r, [SectionCoverage(s, must_stop=s != "match" or r.match_can_reject)
                                 for s in r.sections]) for r in rules}
    for case_id, cands in runs:
        for c in cands:
            cov = table.get(c.rule)
            if cov is None:
                continue
            for s in cov.sections:
                if s.section in c.reached and case_id not in s.reached_by:
                    s.reached_by.append(case_id)
                if c.stopped_at == s.section and case_id not in s.stopped:
                    s.stopped.append(case_id)
            bucket = cov.fired_by if c.fired else cov.rejected_by
            if case_id not in bucket:
                bucket.append(case_id)
    return list(table.values())


def format_coverage(coverage: Sequence[RuleCoverage]) -> str:
    lines = ["rule coverage (reached = some case got to the section; stopped = some case was rejected there)"]
    for cov in coverage:
        state = "covered" if cov.covered else "UNCOVERED"
        lines.append(f"  {cov.rule.name} ({cov.rule.location}): {state}; fired in {len(cov.fired_by)} "
                     f"case(s), rejected in {len(cov.rejected_by)}")
        for s in cov.sections:
            note = "   <- never reached" if not s.reached else (
                "   <- never stopped" if s.must_stop and not s.stopped else "")
            lines.append(f"    {s.section:<11} reached by {len(s.reached_by):>3}  stopped {len(s.stopped):>3}{note}")
        lines += [f"    ! {p}" for p in cov.problems]
    bad = [c.rule.name for c in coverage if not c.covered]
    lines.append(f"{len(coverage) - len(bad)}/{len(coverage)} rules covered"
                 + (f"; uncovered: {', '.join(bad)}" if bad else ""))
    return "\n".join(lines)
