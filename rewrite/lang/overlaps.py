"""The overlap check: rules of the same priority whose roots share an op and one of whose patterns
matches everything the other does (ISLE-style), so load order alone decides which one fires.

It stays near-linear in the number of rules: rules are grouped by priority and root op name;
rules with identical patterns (binding names aside) form one class that is compared once; two
classes are compared only if their literal, kind and nested-op arguments allow one to subsume the
other (an index over those "signatures"); and at most :data:`MAX_OVERLAP_COMPARISONS`
comparisons are made per load, past which one warning says the check
stopped.  Every set of rules connected by overlaps gets one warning.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from rewrite.lang import ast as A
from rewrite.lang.diagnostics import Diagnostic, warning
from rewrite.lang.ops import OpRef, contains, intersects

Ops = Tuple[OpRef, ...]
OpsOf = Callable[[A.OpPattern], Optional[Ops]]
MAX_OVERLAP_COMPARISONS = 100_000   # pattern comparisons per load (docs/language.md, "Limits")
SIGNATURE_POSITIONS = 6  # leading positional arguments that go into a signature
SHOWN_RULES = 3          # rules named (with their locations) in a warning about a larger set
HINT = "give one of them a priority, or make their patterns disjoint"


# --------------------------------------------------------------------------- subsumption


def _universal(p: Optional[A.Pattern]) -> bool:
    if p is None or isinstance(p, A.Wildcard):
        return True
    if isinstance(p, A.KindPattern):
        return p.kind == "any"
    if isinstance(p, A.Bind):
        return _universal(p.pattern)
    return False


def _strip(p: Optional[A.Pattern]) -> Optional[A.Pattern]:
    while isinstance(p, A.Bind):
        p = p.pattern
    return p


def subsumes(ops_of: OpsOf, outer: Optional[A.Pattern], inner: Optional[A.Pattern]) -> bool:
    """Every value ``inner`` matches, ``outer`` matches too (conservatively: False if unsure)."""
    outer, inner = _strip(outer), _strip(inner)
    if _universal(outer):
        return True
    if _universal(inner):
        return False
    if isinstance(outer, A.KindPattern):
        if isinstance(inner, A.KindPattern):
            return outer.kind == inner.kind or (outer.kind == "node" and inner.kind == "input")
        if outer.kind == "node":
            return isinstance(inner, A.OpPattern)
        return outer.kind == "const" and isinstance(inner, A.LiteralPattern)
    if isinstance(outer, A.LiteralPattern):
        return isinstance(inner, A.LiteralPattern) and type(outer.value) is type(inner.value) \
            and outer.value == inner.value
    if isinstance(outer, A.ListPattern):
        return isinstance(inner, A.ListPattern) and len(outer.items) == len(inner.items) and \
            all(subsumes(ops_of, o, i) for o, i in zip(outer.items, inner.items))
    if isinstance(outer, A.OpPattern):
        if not isinstance(inner, A.OpPattern):
            return False
        o_ops, i_ops = ops_of(outer), ops_of(inner)
        return bool(o_ops and i_ops and contains(o_ops, i_ops)) and args_subsume(ops_of, outer, inner)
    return False


def args_subsume(ops_of: OpsOf, outer: A.OpPattern, inner: A.OpPattern) -> bool:
    if outer.rest:
        if len(inner.args) < len(outer.args):
            return False
    elif inner.rest or len(inner.args) != len(outer.args):
        return False
    if not all(subsumes(ops_of, o, i) for o, i in zip(outer.args, inner.args)):
        return False
    inner_kw = {k.key: k.pattern for k in inner.kwargs}
    return all(subsumes(ops_of, k.pattern, inner_kw[k.key]) if k.key in inner_kw else _universal(k.pattern)
               for k in outer.kwargs)


# --------------------------------------------------------------------------- keys and signatures


def _ops_key(ops: Optional[Ops], p: A.OpPattern):
    return tuple(sorted(op.key for op in ops)) if ops else ("unresolved", id(p))  # never equal to another


def pattern_key(ops_of: OpsOf, p: Optional[A.Pattern]):
    """Equal keys: the patterns match the same values (binding names do not matter)."""
    p = _strip(p)
    if _universal(p):
        return ("_",)
    if isinstance(p, A.KindPattern):
        return ("kind", p.kind)
    if isinstance(p, A.LiteralPattern):
        return ("literal", type(p.value).__name__, p.value)
    if isinstance(p, A.ListPattern):
        return ("list",) + tuple(pattern_key(ops_of, i) for i in p.items)
    if isinstance(p, A.OpPattern):
        return ("op", _ops_key(ops_of(p), p), args_key(ops_of, p))
    return ("other", id(p))


def args_key(ops_of: OpsOf, p: A.OpPattern):
    return (tuple(pattern_key(ops_of, a) for a in p.args),
            tuple(sorted(((k.key, pattern_key(ops_of, k.pattern)) for k in p.kwargs), key=repr)), p.rest)


def signature(ops_of: OpsOf, p: A.OpPattern) -> frozenset:
    """Constraints of the leading positional arguments that any pattern subsuming ``p`` must
    also impose: if ``outer`` subsumes ``inner``, signature(outer) <= signature(inner)."""
    out = set()
    for i, arg in enumerate(p.args[:SIGNATURE_POSITIONS]):
        arg = _strip(arg)
        if isinstance(arg, A.LiteralPattern):
            out.add((i, "literal", type(arg.value).__name__, arg.value))
        elif isinstance(arg, A.KindPattern) and arg.kind == "input":
            out.add((i, "input"))
        elif isinstance(arg, A.OpPattern):
            names = {(op.namespace, op.name) for op in ops_of(arg) or ()}
            if len(names) == 1:
                out.add((i, "op") + names.pop())
    return frozenset(out)


def _subsets(sig: frozenset):
    items = sorted(sig, key=repr)
    for n in range(len(items) + 1):
        for combo in combinations(items, n):
            yield frozenset(combo)


# --------------------------------------------------------------------------- the check


@dataclass
class _Class:
    """Rules (indexes into the rule list) with the same priority, root ops and argument key."""

    members: List[int]
    pattern: A.OpPattern
    ops: Ops
    signature: frozenset = frozenset()
    joined: bool = False  # members already united


@dataclass
class OverlapResult:
    warnings: List[Diagnostic] = field(default_factory=list)
    comparisons: int = 0


class _Sets:
    """Union-find over rule indexes."""

    def __init__(self, n: int):
        self.parent = list(range(n))

    def find(self, i: int) -> int:
        while self.parent[i] != i:
            self.parent[i] = self.parent[self.parent[i]]
            i = self.parent[i]
        return i

    def union(self, a: int, b: int) -> None:
        a, b = self.find(a), self.find(b)
        if a != b:
            self.parent[max(a, b)] = min(a, b)


class _Finder:
    def __init__(self, rules: Sequence[Tuple[A.Rule, Optional[Ops]]], ops_of: OpsOf, budget: int):
        self.rules = rules
        self.ops_of = ops_of
        self.budget = budget
        self.sets = _Sets(len(rules))
        self.comparisons = 0

    def classes(self) -> List[_Class]:
        classes: Dict[tuple, _Class] = {}
        for index, (rule, ops) in enumerate(self.rules):
            if not ops:
                continue
            pattern = rule.match.pattern
            key = (rule.priority, tuple(sorted(op.key for op in ops)), args_key(self.ops_of, pattern))
            if key in classes:
                classes[key].members.append(index)
            else:
                classes[key] = _Class([index], pattern, ops, signature(self.ops_of, pattern))
        return sorted(classes.values(), key=lambda c: c.members[0])

    def subsumes(self, outer: _Class, inner: _Class) -> bool:
        self.comparisons += 1
        return args_subsume(self.ops_of, outer.pattern, inner.pattern)

    def join(self, c: _Class) -> None:
        if not c.joined:
            for m in c.members[1:]:
                self.sets.union(c.members[0], m)
            c.joined = True

    def run(self) -> Optional[int]:
        """Unite overlapping rules; the index of the rule where the budget ran out, or None."""
        ordered = self.classes()
        for c in ordered:
            if len(c.members) > 1:
                if self.comparisons >= self.budget:
                    return c.members[0]
                if self.subsumes(c, c):
                    self.join(c)
        groups: Dict[tuple, List[_Class]] = {}
        for c in ordered:
            priority = self.rules[c.members[0]][0].priority
            for name in sorted({(op.namespace, op.name) for op in c.ops}):
                groups.setdefault((priority,) + name, []).append(c)
        seen = set()
        for group in groups.values():
            by_signature: Dict[frozenset, List[_Class]] = {}
            for c in group:
                by_signature.setdefault(c.signature, []).append(c)
            for c in group:
                for sub in _subsets(c.signature):
                    for d in by_signature.get(sub, ()):
                        pair = (min(id(c), id(d)), max(id(c), id(d)))
                        if d is c or pair in seen or not intersects(c.ops, d.ops):
                            continue
                        seen.add(pair)
                        if self.comparisons >= self.budget:
                            return min(c.members[0], d.members[0])
                        # d's signature is within c's: only d can subsume c (either, when they are equal)
                        if self.subsumes(d, c) or (sub == c.signature and self.subsumes(c, d)):
                            self.join(c)
                            self.join(d)
                            self.sets.union(c.members[0], d.members[0])
        return None


def find_overlaps(rules: Sequence[Tuple[A.Rule, Optional[Ops]]], ops_of: OpsOf,
                  budget: int = MAX_OVERLAP_COMPARISONS) -> OverlapResult:
    finder = _Finder(rules, ops_of, budget)
    stopped_at = finder.run()
    result = OverlapResult(_report(rules, finder.sets), finder.comparisons)
    if stopped_at is not None:
        rule = rules[stopped_at][0]
        result.warnings.append(warning(
            f"overlap check stopped after {budget} pattern comparisons; rules from '{rule.name}' on were not "
            f"all compared", rule.span,
            hint=f"at most {MAX_OVERLAP_COMPARISONS} comparisons are made per load; they go to rules with one "
                 f"root op and priority whose patterns differ in ways the index cannot tell apart"))
    return result


def _report(rules: Sequence[Tuple[A.Rule, Optional[Ops]]], sets: _Sets) -> List[Diagnostic]:
    components: Dict[int, List[int]] = {}
    for i in range(len(rules)):
        components.setdefault(sets.find(i), []).append(i)
    out = []
    for members in sorted((m for m in components.values() if len(m) > 1), key=lambda m: m[1]):
        first, second = rules[members[0]][0], rules[members[1]][0]
        if len(members) == 2:
            out.append(warning(f"rule '{second.name}' overlaps rule '{first.name}' ({first.span}): both match "
                               f"the same nodes at the same priority", second.span, hint=HINT))
            continue
        shown = [rules[i][0] for i in members[:SHOWN_RULES]]
        names = ", ".join(f"'{r.name}' ({r.span})" for r in shown)
        rest = len(members) - len(shown)
        names += f" and {rest} more" if rest else ""
        out.append(warning(f"{len(members)} rules overlap: {names}; each matches nodes another of them matches, "
                           f"at the same priority", second.span, hint=HINT))
    return out
