"""pytest collection of corpus cases.

Every case file under a ``corpus`` directory becomes an item ``<file>::eager`` (the eager base);
a case whose EXPECT says ``inductor`` also becomes ``<file>::inductor``, marked
``@pytest.mark.inductor`` (end to end through Inductor's C++ code generation: slow).  Cases
marked ``slow`` get ``@pytest.mark.slow``.  This project's ``tests/conftest.py`` calls the hooks;
another project enables them with ``pytest -p rewrite.testing.pytest_plugin``.
"""
from __future__ import annotations

from pathlib import Path
from typing import Optional

import pytest

from rewrite.testing.case import CaseFormatError, is_case_file, parse_case

CORPUS_DIR = "corpus"
MARKERS = (
    "inductor: end to end through Inductor's CPU code generation (compiles C++, slow)",
    "slow: a corpus case marked slow",
    "corpus: a rule corpus case",
)


def register_markers(config) -> None:
    for line in MARKERS:
        config.addinivalue_line("markers", line)


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
            if case.slow and (base == "inductor" or case.has("slow")):
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


def pytest_configure(config):
    register_markers(config)


def pytest_collect_file(file_path, parent):
    return collect_file(file_path, parent)
