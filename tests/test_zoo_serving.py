"""The model zoo's serving step (benchmarks/zoo_serving.py, custom ops that mutate their
arguments) runs under eager and under the rewrite backend's eager base with auto_functionalized
v1 and v2, and matches eager over 3 calls on the same caches; and the zoo's measuring pieces it
relies on: NaN is a difference, write-backs of a copy into part of an input are found, and a
run of some programs keeps the page's other rows."""
import sys
from pathlib import Path

import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

pytestmark = pytest.mark.skipif(not hasattr(torch.library, "custom_op"), reason="needs torch.library.custom_op")

CALLS = 3


def _run(instance):
    from zoo_measure import snapshot

    return [snapshot(instance.call(i), instance.state()) for i in range(CALLS)]


VLLM_RULES = ROOT / "examples" / "vllm_write_back.rules"


@pytest.mark.parametrize("rules", ["shipped", "vllm example"])
@pytest.mark.parametrize("version", ["v1", "v2"])
def test_serving_step_matches_eager_on_the_rewrite_eager_base(version, rules):
    """Every custom-op call of the step is written back (by the shipped rule, or by the
    vLLM-style example that names the ops), and the step still matches eager."""
    import zoo_programs
    from zoo_measure import compare
    from zoo_serving import ServingConfig

    from rewrite.backend import make_backend

    program = zoo_programs.zoo()[f"{zoo_programs.SERVING} {version}"]
    # 2 layers: the second layer of the stacked caches is a view at an offset
    small = ServingConfig(layers=2, slots_per_seq=32, first_positions=(3, 9, 17, 20))
    torch._dynamo.reset()
    with torch._inductor.config.patch(dict(program.inductor_config)):
        eager = _run(zoo_programs.serving_step(lambda fn: fn, small))
        backend = make_backend(base="eager", cache=False, **({} if rules == "shipped" else {"rules": [str(VLLM_RULES)]}))
        rewritten = _run(zoo_programs.serving_step(lambda fn: torch.compile(fn, backend=backend), small))
    assert sorted(eager[0]) == ["key_cache", "output[0]", "output[1]", "value_cache"]
    assert not torch.equal(eager[0]["key_cache"], eager[1]["key_cache"])   # every call writes the caches
    result = compare(eager, rewritten, program.tolerance)
    assert result["ok"] and result["calls"] == CALLS and result["tensors"] == 4 * CALLS, result
    rule = "write_back_custom_op" if rules == "shipped" else "write_back_serving_kernel"
    assert rule in backend.fired()
    post_grad = [r for r in backend.reports if r.graph == "inference"]
    assert post_grad and all(not any("auto_functionalized" in op for op in r.ops_after) for r in post_grad), \
        [sorted(op for op in r.ops_after if "auto_functionalized" in op) for r in post_grad]
    assert any(any("auto_functionalized" in op for op in r.ops_before) for r in post_grad)


def test_the_serving_ops_are_defined_once_per_process():
    import importlib.util

    import zoo_serving_ops

    spec = importlib.util.spec_from_file_location("zoo_serving_ops_again", ROOT / "benchmarks" / "zoo_serving_ops.py")
    again = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(again)        # a second import under another name defines nothing twice
    assert again.ops.reshape_and_cache is zoo_serving_ops.ops.reshape_and_cache
    schema = str(zoo_serving_ops.ops.fused_add_rms_norm.default._schema)
    assert "Tensor(a0!) input, Tensor(a1!) residual" in schema


def test_a_nan_is_a_difference_unless_eager_has_it_too():
    from zoo_measure import compare
    from zoo_programs import INFERENCE

    eager = [{"x": torch.tensor([1.0, float("nan")])}]
    assert compare(eager, [{"x": torch.tensor([1.0, float("nan")])}], INFERENCE)["ok"]
    assert not compare(eager, [{"x": torch.tensor([1.0, 2.0])}], INFERENCE)["ok"]
    got = compare([{"x": torch.tensor([1.0, 2.0])}], [{"x": torch.tensor([1.0, float("nan")])}], INFERENCE)
    assert not got["ok"] and got["max_abs_diff"] == float("inf")


# A layer of a stacked cache copied out, written by a custom op, and copied back into the input's
# view (the shape auto_functionalized v1 leaves once the select_scatter is written in place).
WRITE_BACK = '''TRACED GRAPH
 ===== AFTER POST GRAD =====
 /x/torch/fx/_lazy_graph_module.py class <lambda>(torch.nn.Module):
    def forward(self, arg0_1: "f32[4, 8, 2][16, 2, 1]cpu", arg1_1: "f32[2, 2][2, 1]cpu", arg2_1: "i64[2][1]cpu"):
        # File: /tmp/case.py:9 in f, code: cache_write(k, cache[1], slots)
        select: "f32[8, 2][2, 1]cpu" = torch.ops.aten.select.int(arg0_1, 0, 1)
        clone_default: "f32[8, 2][2, 1]cpu" = torch.ops.aten.clone.default(select);  select = None
        cache_write_default = torch.ops.lib.cache_write.default(arg1_1, clone_default, arg2_1);  cache_write_default = None
        select_int: "f32[8, 2][2, 1]cpu" = torch.ops.aten.select.int(arg0_1, 0, 1)
        copy__default: "f32[8, 2][2, 1]cpu" = torch.ops.aten.copy_.default(select_int, clone_default);  select_int = clone_default = copy__default = None
        copy_: "f32[4, 8, 2][16, 2, 1]cpu" = torch.ops.aten.copy_.default(arg0_1, arg0_1);  arg0_1 = copy_ = None
        return ()
'''


def test_write_backs_of_a_copy_into_part_of_an_input_are_counted():
    from zoo_measure import copies_of, watched

    from rewrite.testing.final_graphs import parse_final_graph

    graph = parse_final_graph(WRITE_BACK)
    c = copies_of([graph], excerpts=False)
    assert c["count"] == 1 and c["onto_itself"] == 1
    [back] = c["write_backs"]
    assert (back["node"], back["fed_by"], back["bytes_read"], back["bytes_written"]) == ("copy__default", "clone_default", 64, 64)
    w = watched((("cache", "cache_write("),), [graph])["cache"]
    assert (w["copies"], w["copy_backs_of_a_copy"], w["copy_back_traffic"]) == (1, 1, 128)


def test_a_run_of_some_programs_keeps_the_other_rows():
    import models

    def program(name, traffic):
        copies = {"traffic": traffic, "count": 1, "bytes": traffic, "copy_backs": 0, "copy_back_traffic": 0,
                  "list": [], "copy_back_list": []}
        backend = {"error": None, "correct": {"ok": True}, "copies": copies, "median_ms": 1.0}
        return {"name": name, "backends": {"inductor": backend, "rewrite": backend}}

    old = {"date": "2026-12-01T07:30:20", "commit": "aaaaaaa", "command": "python benchmarks/models.py",
           "programs": [program("a", 1), program("b", 2)], "sweeps": [{"name": "s"}], "notes": ["sweep of its own"]}
    new = {"date": "2026-12-03T10:00:00", "commit": "bbbbbbb", "programs": [program("b", 3)], "sweeps": []}
    page = models.merged(new, old, ["a", "b"])
    assert [(r["name"], r.get("from_run", {}).get("commit")) for r in page["programs"]] == [("a", "aaaaaaa"), ("b", None)]
    assert page["sweeps"] == [{"name": "s"}] and page["sweeps_from"]["commit"] == "aaaaaaa"
    assert page["notes"] == ["From the run of 2026-12-01T07:30:20 (`aaaaaaa`): sweep of its own"]
    headline = models.headline(page)
    assert headline["correct under rewrite"] == "1 of 1 programs"
    assert "b 0.00 / 0.00" in headline["copy traffic MiB per call, stock / rewrite"]
    assert "a " not in headline["copy traffic MiB per call, stock / rewrite"]
    assert models.carried_lines(page) == ["Rows from the earlier run of 2026-12-01T07:30:20 on `aaaaaaa`, "
                                          "not re-run by this one: a, the recompile sweeps."]
    assert models.merged(new, None, ["a", "b"]) is new


def test_program_groups_expand_and_unknown_names_are_refused():
    import models
    import zoo_programs

    programs = zoo_programs.zoo()
    assert models.expand(["serving step"], programs) == ["serving step v1", "serving step v2"]
    with pytest.raises(SystemExit, match="no program 'nope'"):
        models.expand(["nope"], programs)
