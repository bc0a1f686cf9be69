"""Collects the rule corpus (tests/corpus/<rules-stem>/<case>.py) as pytest items: every case in
eager mode, the cases whose EXPECT says `inductor` also end to end (`-m "not inductor"` skips
those), run ahead in a worker process where a second CPU is free (`--corpus-jobs`).  See
docs/corpus.md.  Other projects get the same collection with `-p rewrite.testing.pytest_plugin`."""
from rewrite.testing.pytest_plugin import (  # noqa: F401 - pytest finds the hooks by these names
    pytest_addoption, pytest_collect_file, pytest_collection_modifyitems, pytest_configure, pytest_runtestloop,
    pytest_sessionfinish)
