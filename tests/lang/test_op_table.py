"""The op table: what it knows agrees with torch, it is cached as JSON so that `rewrite check`
does not import torch, and ops registered at run time are found."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from rewrite.lang import ops
from rewrite.lang.ops import OPS, OpTable, argument_names, max_positional

ROOT = Path(__file__).resolve().parents[2]


def test_the_table_agrees_with_torch():
    add = OPS.resolve(["aten", "add", "Tensor"])
    assert add.target is torch.ops.aten.add.Tensor and OPS.resolve(["aten", "add"]).target is torch.ops.aten.add
    assert OPS.resolve(["higher_order", "cond"]).target is torch.ops.higher_order.cond
    assert max_positional([add]) == 2 and "alpha" in argument_names([add])
    assert max_positional([OPS.resolve(["aten", "slice_scatter"])]) == 6
    assert set(OPS.table()["aten"]["add"]) == set(torch.ops.aten.add.overloads())


def test_cache_round_trip_and_bad_files(tmp_path, monkeypatch):
    monkeypatch.setenv("REWRITE_CACHE_DIR", str(tmp_path))
    table = ops.build_table()
    assert ops.cached_table() is None
    ops.store_table(table)
    [written] = list(tmp_path.glob("ops-*.json"))
    assert torch.__version__.split("+")[0] in written.name
    assert ops.cached_table() == table
    for garbage in ("{", "[]", json.dumps({"format": 1, "ops": {"aten": {"add": {"Tensor": "x"}}}})):
        written.write_text(garbage)
        assert ops.cached_table() is None


def test_check_does_not_import_torch_with_a_warm_cache(tmp_path):
    env_cache = tmp_path / "cache"
    env = dict(os.environ, REWRITE_CACHE_DIR=str(env_cache))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("REWRITE_CACHE_DIR", str(env_cache))
        ops.store_table(ops.build_table())
    probe = ("import sys; from rewrite.cli import main; code = main(['check', 'rules']); "
             "print(code, 'torch' in sys.modules)")
    # the first run also fills the cache of what reinplace would create (it needs Inductor)
    runs = [subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, env=env,
                           timeout=180) for _ in range(2)]
    assert runs[1].stdout.strip().splitlines()[-1] == "0 False", runs[1].stdout + runs[1].stderr


def test_ops_registered_at_run_time_are_found_and_misses_rebuild_once(monkeypatch):
    table = OpTable()
    table.table()
    lib = torch.library.Library("rewrite_test_ops", "DEF")
    lib.define("late(Tensor x) -> Tensor")
    builds = []
    real = ops.build_table
    monkeypatch.setattr(ops, "build_table", lambda: builds.append(1) or real())
    monkeypatch.setattr(ops, "OPS", table)
    table.begin()
    assert table.resolve(["rewrite_test_ops", "late"]).target is torch.ops.rewrite_test_ops.late
    for i in range(50):
        try:
            table.resolve(["aten", f"missing_{i}"])
        except ops.OpLookupError:
            pass
    assert len(builds) == 1
