"""Collects the rule corpus (tests/corpus/<rules-stem>/<case>.py) as pytest items: every case in
eager mode, the cases whose EXPECT says `inductor` also end to end (`-m "not inductor"` skips
those).  See docs/corpus.md.  Other projects get the same collection with
`-p rewrite.testing.pytest_plugin`."""
from rewrite.testing import pytest_plugin as _corpus


def pytest_configure(config):
    _corpus.register_markers(config)


def pytest_collect_file(file_path, parent):
    return _corpus.collect_file(file_path, parent)
