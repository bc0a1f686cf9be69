import pytest
import torch

from rewrite.lang import ast as A
from rewrite.lang.diagnostics import RulesError
from rewrite.lang.loader import load, shipped_rules_dir
from rewrite.vocab import default_registry

RULE = "rule {name}\n  match y = {root}(x, ...)\n  where is_input(x)\n  rewrite reinplace(y)\n"


def test_opsets_are_flattened_and_resolved(write):
    path = write("a.rules", "opset small = aten.add.Tensor | aten.mul\n"
                            "opset big = small | higher_order.while_loop | aten.mul\n")
    loaded = load(path)
    assert loaded.opsets["small"] == (torch.ops.aten.add.Tensor, torch.ops.aten.mul)
    assert loaded.opsets["big"] == (torch.ops.aten.add.Tensor, torch.ops.aten.mul, torch.ops.higher_order.while_loop)
    assert loaded.resolve("big") == loaded.opsets["big"]
    assert loaded.resolve("aten.add") == (torch.ops.aten.add,)
    assert loaded.resolve(A.Callee(("aten", "sub", "Tensor"))) == (torch.ops.aten.sub.Tensor,)
    with pytest.raises(KeyError):
        loaded.resolve("aten.no_such_op")


def test_facts_tables(write):
    path = write("f.rules", "opset trig = aten.sin | aten.cos\n"
                            "facts saved_for_backward\n  input: trig | aten.log\n  none: aten.sum\n")
    facts = load(path).facts["saved_for_backward"]
    assert facts["input"] == frozenset({torch.ops.aten.sin, torch.ops.aten.cos, torch.ops.aten.log})
    assert facts["none"] == frozenset({torch.ops.aten.sum})


def test_includes_resolve_relative_to_the_including_file_and_load_once(write, tmp_path):
    write("lib/ops.rules", "opset adds = aten.add\n")
    write("lib/more.rules", 'include "ops.rules"\n' + RULE.format(name="b", root="aten.sub"))
    main = write("main.rules", 'include "lib/more.rules"\ninclude "lib/ops.rules"\n'
                               + RULE.format(name="a", root="adds"))
    loaded = load([main, tmp_path / "lib"])
    assert [r.name for r in loaded.rules] == ["b", "a"]  # included items come first
    assert len(loaded.modules) == 3
    assert loaded.rules[1].span.file == str(main) and loaded.rules[1].span.line == 3


def test_folder_loads_sorted_rules_files_only(write, tmp_path):
    write("b.rules", RULE.format(name="second", root="aten.sub"))
    write("a.rules", RULE.format(name="first", root="aten.add"))
    write("notes.txt", "not a rules file")
    loaded = load(tmp_path)
    assert [r.name for r in loaded.rules] == ["first", "second"]
    assert sorted(loaded.sources) == [str(tmp_path / "a.rules"), str(tmp_path / "b.rules")]


def test_digest_is_stable_and_tracks_content(write, tmp_path):
    path = write("a.rules", RULE.format(name="r", root="aten.add"))
    first = load(path).digest
    assert load(str(path)).digest == first and len(first) == 64
    path.write_text(RULE.format(name="r", root="aten.sub"))
    assert load(path).digest != first


def test_errors_raise_with_every_diagnostic(write):
    path = write("bad.rules", "opset a = aten.ad\nopset b = aten.mull\n")
    with pytest.raises(RulesError) as info:
        load(path)
    assert len(info.value.diagnostics) == 2
    assert f"{path}:1:11: error: unknown op 'aten.ad'" in str(info.value)
    assert f"{path}:2:11: error: unknown op 'aten.mull'" in str(info.value)


def test_registry_extends_the_vocabulary(write):
    path = write("a.rules", "rule r\n  match y = aten.add(x, ...)\n  where is_small(x)\n")
    with pytest.raises(RulesError, match="unknown predicate or function 'is_small'"):
        load(path)
    registry = default_registry().child()
    registry.register("is_small", "predicate", lambda ctx, x: True)
    assert [r.name for r in load(path, registry=registry).rules] == ["r"]


def test_shipped_rules_load():
    loaded = load(shipped_rules_dir())
    assert {r.name for r in loaded.rules} >= {"reinplace_update_into_input", "read_input_before_its_copy_back"}
    assert [d.name for d in loaded.dependencies] == ["while_loop_captured_mutations", "cond_captured_mutations"]
    assert torch.ops.aten.slice_scatter in loaded.opsets["view_scatter"]
    assert loaded.warnings == []
