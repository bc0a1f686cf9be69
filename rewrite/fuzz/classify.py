"""Who is wrong: the class of a program on one base, from the rewrite backend's outcome and
that of the backend it is judged against (stock Inductor; on the eager base, the rules-free
eager pipeline).

* ``ours``: rewrite is wrong or crashes, stock is right;
* ``stock``: stock is wrong or crashes, rewrite is right;
* ``both``: both are wrong or crash (a crash stock shares is not ours);
* ``ok``: both match eager;
* ``skipped``: Dynamo cannot compile the program (under ``fullgraph=True``).
"""
from __future__ import annotations

from typing import Iterable, Optional

CLASSES = ("ours", "both", "stock", "ok", "skipped")   # worst first
#: base -> (the rewrite backend, the backend it is judged against); the backends are described
#: in :mod:`rewrite.fuzz.oracle`, which runs them
BASE_BACKENDS = {"eager": ("rewrite-eager", "pipeline-eager"), "inductor": ("rewrite-inductor", "inductor")}


def classify(rewrite, stock: Optional[object]) -> str:
    """``rewrite``, ``stock``: :class:`rewrite.fuzz.oracle.Outcome` (``stock`` None when it did
    not run because rewrite matched eager)."""
    if rewrite.status == "unsupported" and (stock is None or stock.status == "unsupported"):
        return "skipped"
    rewrite_bad = rewrite.status != "ok"                 # a lone "cannot compile" is a crash of ours
    stock_bad = stock is not None and stock.status != "ok"
    if rewrite_bad and stock_bad:
        return "both"
    if rewrite_bad:
        return "ours"
    if stock_bad:
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
