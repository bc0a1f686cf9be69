"""Who is wrong: the class of a program on one base, from the outcomes of the rewrite backend,
the backend it is judged against (stock Inductor; on the eager base, the rules-free eager
pipeline) and torch's reference pipeline ``aot_eager`` (AOTAutograd without any of Inductor's
passes), where they ran.

* ``ours``: rewrite is wrong or crashes, and its judge or torch's ``aot_eager`` is right (where
  either is right, rewrite must be right: issue 23);
* ``stock``: the judge is wrong or crashes, rewrite is right;
* ``both``: rewrite is wrong or crashes and so is every backend it is compared with that ran
  (a limit of torch: a crash they share is not ours);
* ``ok``: rewrite and the judge match eager;
* ``skipped``: Dynamo cannot compile the program (under ``fullgraph=True``).
"""
from __future__ import annotations

from typing import Iterable, Mapping

CLASSES = ("ours", "both", "stock", "ok", "skipped")   # worst first
#: base -> (the rewrite backend, the backend it is judged against); the backends are described
#: in :mod:`rewrite.fuzz.oracle`, which runs them
BASE_BACKENDS = {"eager": ("rewrite-eager", "pipeline-eager"), "inductor": ("rewrite-inductor", "inductor")}
#: torch's reference pipeline: where it is right, a wrong rewrite is ours whatever the judge did
#: (on the Inductor base the judge is stock Inductor, the other reference)
REFERENCES = ("aot_eager",)


def references(base: str) -> tuple:
    """The backends a rewrite failure on ``base`` is compared with: its judge, then torch's
    reference pipeline.  (Stock Inductor is no reference for the eager base: it compiles code
    where the eager base runs the graph as it is, and a graph of symbolic sizes that no eager
    run can execute is a limit of running graphs eagerly, which aot_eager shares.)"""
    return (BASE_BACKENDS[base][1],) + REFERENCES


def classify(outcomes: Mapping[str, object], base: str) -> str:
    """The class on ``base`` from ``outcomes`` (backend name -> :class:`rewrite.fuzz.oracle.Outcome`,
    those that ran: the judge does not run on the eager base when rewrite matched eager, the
    references only when some backend failed)."""
    rewrite = outcomes[BASE_BACKENDS[base][0]]
    judge = outcomes.get(BASE_BACKENDS[base][1])
    compared = [outcomes[name] for name in references(base) if name in outcomes]
    if rewrite.status == "unsupported" and all(o.status == "unsupported" for o in compared):
        return "skipped"
    if rewrite.status != "ok":                           # a lone "cannot compile" is a crash of ours
        right = any(o.status == "ok" for o in compared)
        return "ours" if right or not compared else "both"
    if judge is not None and judge.status != "ok":
        return "stock"
    return "ok"


def overall(classes: Iterable[str]) -> str:
    """The program's class over several bases: the worst one (``ours`` > ``both`` > ``stock`` >
    ``ok`` > ``skipped``)."""
    seen = list(classes)
    for c in CLASSES:
        if c in seen:
            return c
    return "skipped"


def same_failure(verdict, base: str, want_class: str, want) -> bool:
    """Does ``verdict`` show the failure ``want`` (a verdict) showed on ``base``: same class, same
    kind of outcome (wrong / crash, and the same exception type) for each backend that failed?
    The minimizer keeps a smaller program only while this holds."""
    if verdict.classes.get(base) != want_class:
        return False
    for name in BASE_BACKENDS[base]:
        old = want.outcomes.get(name)
        if old is None or not old.bad:
            continue
        new = verdict.outcomes.get(name)
        if new is None or new.status != old.status or (old.status == "crash" and new.error_type != old.error_type):
            return False
    return True
