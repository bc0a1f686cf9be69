"""pytest collection of corpus cases, run ahead in worker processes.

Every case file under a ``corpus`` directory becomes an item ``<file>::eager`` (the eager base);
a case whose EXPECT says ``inductor`` also becomes ``<file>::inductor``, marked
``@pytest.mark.inductor`` (end to end through Inductor's C++ code generation).  A case whose
EXPECT says ``slow`` gets ``@pytest.mark.slow`` on both.  This project's ``tests/conftest.py``
imports the hooks; another project enables them with ``pytest -p rewrite.testing.pytest_plugin``.

Cases are independent programs, each compiled with fresh Dynamo caches, so they need not run in
pytest's process: with ``--corpus-jobs N`` (default: up to 2, one per CPU) the selected corpus
items run last, and N - 1 worker processes start on them from the last one backwards as soon as
the tests start, while pytest runs the other tests and then the corpus items from the first one
forwards (:class:`rewrite.testing.parallel.CasesAhead`).  What a case printed in a worker and
the warnings it raised are replayed in its item.  ``--corpus-jobs 1`` runs every case in
pytest's process, in collection order.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest

from rewrite.testing.case import CaseFormatError, is_case_file, parse_case

CORPUS_DIR = "corpus"
MARKERS = (
    "inductor: end to end through Inductor's CPU code generation (compiles C++, slow)",
    "slow: a corpus case whose EXPECT says slow",
    "corpus: a rule corpus case",
)
# Unless --corpus-jobs is given, fewer corpus items than this run in pytest's process: starting a
# worker (a Python process that imports torch) costs more than it saves.
MIN_CASES_AHEAD = 8
_PLANNED = pytest.StashKey[tuple]()     # (workers, [(path, base) of each corpus item])
_AHEAD = pytest.StashKey[object]()


def register_markers(config) -> None:
    for line in MARKERS:
        config.addinivalue_line("markers", line)


def register_options(parser) -> None:
    parser.getgroup("corpus").addoption(
        "--corpus-jobs", type=int, default=None, metavar="N",
        help="processes that run corpus cases: pytest's own and N-1 workers that run cases ahead of "
             "it (default: min(2, CPUs); 1: every case in pytest's process, in collection order)")


def plan_cases_ahead(config, items: list) -> None:
    """Move the selected corpus items to the end and note them for the workers (nothing when one
    job is asked for, when only collecting, or, unless jobs are asked for, for a handful of cases)."""
    cases = [item for item in items if isinstance(item, CaseItem)]
    asked = config.getoption("corpus_jobs", None)
    if config.option.collectonly or not cases or (asked is None and len(cases) < MIN_CASES_AHEAD):
        return
    from rewrite.testing.parallel import default_jobs  # lazy: imports torch (collection stays torch-free)

    jobs = default_jobs() if asked is None else asked
    if jobs <= 1:
        return
    items[:] = [item for item in items if not isinstance(item, CaseItem)] + cases
    config.stash[_PLANNED] = (jobs - 1, [(item.path, item.base) for item in cases])


def start_cases_ahead(session) -> None:
    """Start the workers planned at collection, unless collection failed (then nothing runs)."""
    planned = session.config.stash.get(_PLANNED, None)
    if planned is None or (session.testsfailed and not session.config.option.continue_on_collection_errors):
        return
    from rewrite.testing.parallel import CasesAhead  # lazy: imports torch

    workers, cases = planned
    session.config.stash[_AHEAD] = CasesAhead(cases, workers)


def stop_cases_ahead(session) -> None:
    ahead = session.config.stash.get(_AHEAD, None)
    if ahead is not None:
        ahead.close()


def collect_file(file_path: Path, parent) -> Optional["CaseFile"]:
    file_path = Path(file_path)
    if CORPUS_DIR in file_path.parent.parts and is_case_file(file_path):
        return CaseFile.from_parent(parent, path=file_path)
    return None


class CaseFailed(AssertionError):
    def __init__(self, result):
        super().__init__(result.details())
        self.result = result


class CaseFile(pytest.File):
    def collect(self):
        try:
            case = parse_case(self.path)
        except CaseFormatError as exc:
            raise self.CollectError(str(exc)) from None
        bases = ["eager"] + (["inductor"] if case.inductor else [])
        for base in bases:
            item = CaseItem.from_parent(self, name=base, base=base)
            item.add_marker(pytest.mark.corpus)
            if base == "inductor":
                item.add_marker(pytest.mark.inductor)
            if case.has("slow"):
                item.add_marker(pytest.mark.slow)
            yield item

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, self.CollectError):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class CaseItem(pytest.Item):
    def __init__(self, *, base: str, **kwargs):
        super().__init__(**kwargs)
        self.base = base

    def runtest(self):
        ahead = self.config.stash.get(_AHEAD, None)
        outcome = ahead.take(self.path, self.base) if ahead is not None else None
        if outcome is not None:
            result = outcome.replay()
        else:
            from rewrite.testing.runner import run_case  # lazy: imports torch (collection stays torch-free)

            result = run_case(self.path, base=self.base)
        if not result.ok:
            raise CaseFailed(result)

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, CaseFailed):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, None, f"corpus case {self.path.parent.name}/{self.path.stem} [{self.base}]"


# --------------------------------------------------------------------------- hooks (`-p rewrite.testing.pytest_plugin`)


def pytest_addoption(parser):
    register_options(parser)


def pytest_configure(config):
    register_markers(config)


def pytest_collect_file(file_path, parent):
    return collect_file(file_path, parent)


@pytest.hookimpl(trylast=True)       # after -m and -k have deselected
def pytest_collection_modifyitems(session, config, items):
    plan_cases_ahead(config, items)


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session):
    start_cases_ahead(session)


def pytest_sessionfinish(session):
    stop_cases_ahead(session)
