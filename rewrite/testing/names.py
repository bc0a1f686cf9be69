"""Checking the names a case's EXPECT block mentions before anything runs: every rule must be
defined in the rule files the run uses, every op must exist.  Without this, ``not fires:
reinplace_scater`` or ``absent: aten.scater`` would pass for ever, and a case run with other rules
(``rewrite test --rules other.rules``) would report "no candidate" for a rule that is simply not
loaded."""
from __future__ import annotations

import difflib
import os
from functools import lru_cache
from typing import Dict, List, Optional, Sequence, Tuple

from rewrite.lang import ast as A
from rewrite.lang.loader import read_files, shipped_rules_dir
from rewrite.lang.ops import OPS, OpLookupError
from rewrite.testing.expect import Expectation

RULE_KINDS = ("fires", "rejects", "not_fires")
OP_KINDS = ("absent", "present")


def _key(paths: Optional[Sequence]) -> Tuple[Tuple[str, int, int], ...]:
    """Identifies a rule set by its paths and their modification times (a file edited between
    two runs in one process is read again)."""
    out = []
    for p in [shipped_rules_dir()] if paths is None else paths:
        p = os.fspath(p)
        try:
            info = os.stat(p)
            out.append((p, info.st_mtime_ns, info.st_size))
        except OSError:
            out.append((p, 0, 0))
    return tuple(out)


@lru_cache(maxsize=16)
def _defined(key: Tuple[Tuple[str, int, int], ...]) -> Dict[str, str]:
    modules, _, _ = read_files([p for p, _, _ in key])
    return {item.name: item.span.file for m in modules for item in m.items
            if isinstance(item, (A.Rule, A.Dependency))}


def rules_defined(paths: Optional[Sequence] = None) -> Dict[str, str]:
    """Rule (and dependency) name -> defining file, for the rule files ``paths`` (None: the
    shipped rules).  Only read and parsed, not checked: a broken file is reported by the run."""
    return _defined(_key(paths))


def name_problems(expectations: Sequence[Expectation], rules: Optional[Sequence] = None) -> List[str]:
    """Why the names in ``expectations`` cannot be checked against a run with ``rules``: one
    message per unknown rule, rule not loaded, or unknown op."""
    problems: List[str] = []
    in_use = rules_defined(rules)
    shipped = rules_defined(None) if rules is not None else in_use
    for e in expectations:
        if e.kind in RULE_KINDS and e.subject not in in_use:
            if e.subject in shipped:
                used = f"uses only {', '.join(os.fspath(p) for p in rules)}" if rules else "loads no rule files"
                problems.append(f"{e.text}: rule '{e.subject}' is not loaded: it is defined in "
                                f"{shipped[e.subject]}, but this run {used}")
            else:
                close = difflib.get_close_matches(e.subject, sorted(in_use), n=1)
                hint = f"; did you mean '{close[0]}'?" if close else ""
                problems.append(f"{e.text}: unknown rule '{e.subject}': no rule file of this run defines it{hint}")
        elif e.kind in OP_KINDS:
            problem = _op_problem(e.subject)
            if problem:
                problems.append(f"{e.text}: {problem}")
    return problems


def _op_problem(name: str) -> Optional[str]:
    parts = name.split(".")
    if len(parts) < 2:
        return f"'{name}' is not an op name; write namespace.op (aten.add) or namespace.op.overload"
    try:
        OPS.resolve(parts)
    except OpLookupError as exc:
        return exc.message + (f"; {exc.hint}" if exc.hint else "")
    return None
