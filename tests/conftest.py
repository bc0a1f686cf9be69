"""Collects the rule corpus (tests/corpus/<rules-stem>/<case>.py) as pytest items: every case in
eager mode, the cases whose EXPECT says `inductor` also end to end (`-m "not inductor"` skips
those).  See docs/corpus.md."""
from rewrite.testing import pytest_plugin as _corpus


def _plugin_active(config) -> bool:
    # When the package is installed, its pytest11 entry point registers the same hooks.
    return config.pluginmanager.has_plugin("rewrite_corpus")


def pytest_configure(config):
    if not _plugin_active(config):
        _corpus.register_markers(config)


def pytest_collect_file(file_path, parent):
    if _plugin_active(parent.config):
        return None
    return _corpus.collect_file(file_path, parent)
