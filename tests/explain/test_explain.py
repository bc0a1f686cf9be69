"""``rewrite explain`` on a real function: ``x[1:-1].add_(d)`` compiled once with the shipped
rules (eager base); the text, the page and the command line."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
import torch

from rewrite.explain import TargetError, explain_reports, load_target, render_html, render_text
from rewrite.stages import STEPS

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "tests" / "corpus"


def slice_add(x, d):
    x[1:-1].add_(d)


@pytest.fixture(scope="module")
def reports():
    return explain_reports(slice_add, torch.randn(8), torch.randn(6))


def test_reports_of_the_dynamo_and_inference_graphs(reports):
    assert [r.graph for r in reports] == ["dynamo", "inference"]
    assert reports[1].fired_rules() == ["reinplace_update_into_input"]


def test_text_marks_what_changed_and_explains_every_candidate(reports):
    text = render_text(reports, title="slice_add [eager]")
    assert text.startswith("rewrite explain: slice_add [eager]\n")
    assert re.search(r"estimated clone/copy traffic removed: \d+ bytes per call", text)
    dynamo, inference = text.split("\n\n== ")[1:]
    # The Dynamo graph, unchanged, printed once; its in-place method writes what it is called on.
    assert dynamo.startswith("dynamo graph: 0 fired") and "-- the graph (the rules did not change it) --" in dynamo
    assert "-- before the rules --" not in dynamo and "  add_: f32[6] = Tensor.add_(getitem, l_d_)  # writes getitem" in dynamo
    before, after = inference.split("-- after the rules --")
    assert "- slice_scatter: f32[8] = aten.slice_scatter(arg0_1, add)" in before
    assert "- copy_: f32[8] = aten.copy_(arg0_1, slice_scatter)  # writes arg0_1" in before
    assert "  add: f32[6] = aten.add(slice_1, arg1_1)" in before and "  add: f32[6] = aten.add(slice_1, arg1_1)" in after
    assert "+ copy__default: f32[6] = aten.copy_(slice_tensor, add)  # writes slice_tensor" in after
    assert re.search(r"reinplace_update_into_input @ \S*reinplace\.rules:\d+ on slice_scatter \[inference\]: fired", after)
    assert "fired; reached: match, where, safe, rewrite, legality" in after
    assert re.search(r"rule source \(\S*reinplace\.rules:\d+\): rule reinplace_update_into_input", after)
    assert re.search(r"stopped at \w+; reached: ", after)


def test_page_of_a_real_function(reports):
    page = render_html(reports, title="slice_add")
    sections = re.findall(r"<section.*?</section>", page, flags=re.S)
    dynamo, inference = sections
    assert dynamo.count("<svg") == 1 and "unchanged by the rules" in dynamo
    assert "<title>add_ writes into getitem</title>" in dynamo
    assert inference.count('<svg xmlns="http://www.w3.org/2000/svg" class="graph"') == 2
    assert "<title>copy_ writes into arg0_1</title>" in inference
    assert "<title>copy__default writes into slice_tensor</title>" in inference
    assert "nodes collapsed" not in page                      # small graphs are drawn whole
    row = re.search(r'<tr class="fired">.*?</tr>', inference, flags=re.S).group(0)
    assert "reinplace_update_into_input" in row and "rule reinplace_update_into_input" in row
    assert [s for s in STEPS if f'class="step passed" title="{s}:' in row] == \
        ["match", "where", "safe", "rewrite", "legality"]


def test_command_writes_the_text_and_the_page(tmp_path, capsys):
    from rewrite.cli import main

    out = tmp_path / "page.html"
    case = CORPUS / "reinplace" / "composed_field_update.py"
    assert main(["explain", f"{case}::composed", "--html", str(out)]) == 0
    captured = capsys.readouterr()
    assert "reinplace_update_into_input" in captured.out and f"wrote {out}" in captured.err
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "index_put" in page and 'class="writes"' in page
    assert main(["explain", f"{tmp_path}/missing.py::f"]) == 2
    assert "rewrite explain: " in capsys.readouterr().err
    assert main(["explain", f"{case}::composed", "--html", str(tmp_path / "no" / "page.html")]) == 2
    assert "rewrite explain: cannot write" in capsys.readouterr().err


def test_target_errors(tmp_path):
    f = tmp_path / "m.py"
    f.write_text("import torch\ndef g(x):\n    return x + 1\ndef g_inputs():\n    return (torch.ones(2),)\n")
    fn, inputs, name, settings = load_target(f"{f}::g")
    assert name == "g" and inputs[0].shape == (2,) and settings == {}
    with pytest.raises(TargetError, match=r"has no function 'h' \(functions: g, g_inputs\)"):
        load_target(f"{f}::h")
    f.write_text("def g(x):\n    return x\ndef inputs():\n    raise RuntimeError('no')\n")
    with pytest.raises(TargetError, match=r"inputs\(\) failed: RuntimeError: no"):
        load_target(f"{f}::g")
    f.write_text("def g(x):\n    return x\n")
    with pytest.raises(TargetError, match="neither g_inputs\\(\\) nor inputs\\(\\)"):
        load_target(f"{f}::g")


def test_explain_corpus_case_compiled_both_ways_explains_the_static_run(capsys):
    """`DYNAMIC = "both"` in a corpus case: explain compiles the static run (torch.compile takes
    a bool), and says why the copy-back rule did not fire (on the eager base, which explain
    compiles for, nothing is inlined into the copy's loop: no lowering hazard)."""
    from rewrite.cli import main
    case = Path(__file__).parents[1] / "corpus" / "inductor" / "copy_back_source_realized_by_inductor.py"
    _, _, _, settings = load_target(str(case))
    assert settings["dynamic"] is False
    assert main(["explain", str(case)]) == 0
    out = capsys.readouterr().out
    assert "materialize_copy_back_source @" in out and "lowering_hazard_inside(copy_) is false" in out
