"""Tests of the corpus tools themselves: the case format, the checks, state comparison, coverage,
the runner against a deliberately broken rule file."""
from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from rewrite.engine.report import Candidate, Report
from rewrite.testing import coverage as cov
from rewrite.testing.case import CaseFormatError, discover, parse_case
from rewrite.testing.checks import check_reports, op_count
from rewrite.testing.console import Progress, print_run, shipped_rule_files, table
from rewrite.testing.expect import parse_expect_line
from rewrite.testing.runner import CaseResult, run_case
from rewrite.testing.state import compare, snapshot

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus"

GOOD = '''\
"""doc"""
import torch

EXPECT = """
fires: reinplace_update_into_input
rejects: reinplace_update_into_input at safe because overlaps
not fires: privatize_for_inductor in forward
absent: aten.slice_scatter
present: aten.index_put count>=2 in backward
matches_eager exact atol=0.5
inductor
"""
MODE = "training"
CALLS = 4
DYNAMIC = True


def fn(x):
    return x


def inputs():
    return (torch.ones(2),)
'''


def write(tmp_path, source, name="case.py"):
    path = tmp_path / "reinplace" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(source))
    return path


# --------------------------------------------------------------------------- format


def test_parse_good_case(tmp_path):
    case = parse_case(write(tmp_path, GOOD))
    assert case.case_id == "reinplace/case"
    assert (case.mode, case.calls, case.dynamic, case.inductor) == ("training", 4, True, True)
    kinds = [e.kind for e in case.expectations]
    assert kinds == ["fires", "rejects", "not_fires", "absent", "present", "matches_eager", "inductor"]
    rejects = case.expectations[1]
    assert (rejects.subject, rejects.stage, rejects.because) == ("reinplace_update_into_input", "safe", "overlaps")
    present = case.expectations[4]
    assert (present.count, present.at_least, present.graph) == (2, True, "backward")
    assert case.expectations[3].graph == "post" and case.expectations[0].graph == "any"
    m = case.expectations[5]
    assert m.exact and m.atol == 0.5
    assert case.rules == ["reinplace_update_into_input", "privatize_for_inductor"]   # once each


BAD = [
    (GOOD.replace("fires: reinplace_update_into_input", "fire: reinplace_update_into_input"),
     5, "unknown expectation 'fire' (did you mean `fires`?)"),
    (GOOD.replace(" at safe because overlaps", ""), 6, "needs `at STAGE`"),
    (GOOD.replace("at safe", "at safety"), 6, "unknown stage 'safety'"),
    (GOOD.replace("in backward", "in backwards"), 9, "unknown graph 'backwards'"),
    (GOOD.replace("count>=2", "count>2"), 9, "bad count 'count>2'"),
    (GOOD.replace("matches_eager exact atol=0.5", "matches_eager exactly"), 10, "unexpected 'exactly'"),
    (GOOD.replace("absent: aten.slice_scatter", "absent aten.slice_scatter"), 8, "needs a colon"),
    (GOOD.replace('MODE = "training"', 'MODE = "train"'), 13, "MODE must be one of"),
    (GOOD.replace("CALLS = 4", "CALLS = '4'"), 14, "CALLS must be a int"),
    (GOOD.replace("CALLS = 4", "CALL = 4"), 14, "unknown setting CALL (did you mean CALLS?)"),
    (GOOD.replace("matches_eager exact atol=0.5\n", ""), 4, "every case must say `matches_eager`"),
    (GOOD.replace("def inputs():", "def make_inputs():"), 1, "no top-level function `inputs`"),
    (GOOD.replace('EXPECT = """', 'EXPECTED = """'), 4, "unknown setting EXPECTED (did you mean EXPECT?)"),
    (GOOD.replace("def fn(x):", "def fn(x)"), 18, "not valid Python"),
    (GOOD.replace("inductor\n", "compile_raises: DependencyError\n"), 4, "exclude each other"),
    (GOOD.replace("inductor\n", "compile_raises DependencyError\n"), 11, "needs a colon"),
]


@pytest.mark.parametrize("source,line,message", BAD, ids=[b[2][:30] for b in BAD])
def test_format_errors_are_clear(tmp_path, source, line, message):
    path = write(tmp_path, source)
    with pytest.raises(CaseFormatError) as info:
        parse_case(path)
    assert message in str(info.value)
    assert info.value.line == line
    assert str(info.value).startswith(f"{path}:{line}: ")


def test_missing_expect_block(tmp_path):
    path = write(tmp_path, "import torch\ndef fn(x): return x\ndef inputs(): return (torch.ones(1),)\n")
    with pytest.raises(CaseFormatError, match="no EXPECT"):
        parse_case(path)


def test_malformed_case_is_an_error_result_not_a_crash(tmp_path):
    path = write(tmp_path, GOOD.replace("at safe", "at nowhere"))
    result = run_case(path)
    assert result.status == "error" and "unknown stage 'nowhere'" in result.failures[0]


def test_every_corpus_case_parses_and_is_checked_against_eager():
    files = discover([CORPUS])
    assert len(files) >= 62
    for path in files:
        case = parse_case(path)
        assert case.has("matches_eager") or case.has("eager_raises") or case.has("compile_raises"), path
    stems = {p.parent.name for p in files}
    # One directory per rule file that declares rules (fact-only files such as includes have none).
    declaring = {Path(r.location.rsplit(":", 1)[0]).stem for r in cov.rule_catalog(shipped_rule_files())}
    assert stems == declaring


def test_fuzz_and_issue_programs_run_on_both_bases_and_both_shapes():
    """A program the fuzzer found or an issue reported (its docstring cites the fuzzer or an
    issue; `issue8_*`, `upstream_*`) must match eager on both bases, with static and dynamic shapes;
    a case that cannot says why in its docstring ("so the case runs ...": a torch limit that
    stock Inductor shares)."""
    found, narrowed = [], []
    for path in discover([CORPUS]):
        case = parse_case(path)
        doc = " ".join(case.doc.split())
        if not ("fuzz" in doc.lower() or "issue" in doc.lower() or path.stem.startswith(("issue8_", "upstream_"))):
            continue
        found.append(case.case_id)
        if not (case.inductor and case.dynamic == "both") and "so the case runs" not in doc:
            narrowed.append(case.case_id)
    assert len(found) >= 40, found
    assert not narrowed, f"run on one base or one shape only, without a reason: {narrowed}"


# --------------------------------------------------------------------------- checks on reports


def cand(rule, stopped_at=None, graph="inference", reached=("match",), node="n", reason="r"):
    return Candidate(rule=rule, location="rules/x.rules:1", node=node, graph=graph, stopped_at=stopped_at,
                     reason=reason, reached=reached)


def expectations(*lines):
    return [parse_expect_line(line) for line in lines]


def test_checks_on_synthetic_reports():
    reports = [
        Report("dynamo", candidates=[cand("dep", graph="dynamo")]),
        Report("forward", candidates=[cand("a"), cand("b", "safe", reason="overlaps(src, s) is true")],
               ops_after={"aten.copy_.default": 1, "aten.add.Tensor": 2}),
        Report("backward", ops_after={"aten.index_put.default": 1}),
    ]
    ok = expectations("fires: a", "fires: a count=1", "fires: dep in dynamo", "rejects: b at safe",
                      "rejects: b at safe because overlaps", "not fires: b", "absent: aten.slice_scatter",
                      "present: aten.add count=2", "present: aten.add.Tensor", "present: aten.copy_",
                      "present: aten.index_put in backward", "absent: aten.index_put")
    assert check_reports(ok, reports) == []
    bad = expectations("fires: b", "fires: a count=2", "fires: a in backward", "rejects: b at where",
                       "rejects: b at safe because layout", "not fires: a", "absent: aten.add",
                       "present: aten.add count=3", "present: aten.copy", "absent: aten.copy_ in inference",
                       "fires: nothing")
    problems = check_reports(bad, reports)
    assert len(problems) == len(bad), problems
    assert "b did not fire; n [inference] stopped at safe: overlaps(src, s) is true" in problems[0]
    assert "no inference graph was processed" in problems[9]
    assert "no candidate at all" in problems[10]


def test_op_count_matches_overloads_but_not_prefixes():
    ops = {"aten.copy_.default": 2, "aten.copy.default": 1, "aten.slice_scatter": 1}
    assert op_count(ops, "aten.copy_") == 2
    assert op_count(ops, "aten.copy") == 1
    assert op_count(ops, "aten.slice_scatter") == 1
    assert op_count(ops, "aten.slice") == 0


# --------------------------------------------------------------------------- state comparison


def test_compare_snapshots():
    x = torch.arange(4)
    base = snapshot((x, 3), [x.clone(), 2.0], grads=False)
    assert compare(base, snapshot((x.clone(), 3), [x.clone(), 2.0], grads=False), False, 1e-6, 1e-6) == []
    y = x.clone()
    y[2] = 7
    problems = compare(base, snapshot((y, 3), [x.clone()], grads=False), False, 1e-6, 1e-6)
    assert problems == ["output[0]: not equal at 1 of 4 elements; first at [2]: eager 2, compiled 7"]
    f = torch.tensor([1.0, float("nan")])
    close = f + torch.tensor([1e-6, 0.0])
    assert compare(snapshot(f, [], False), snapshot(close, [], False), False, 1e-6, 1e-6) == []
    assert compare(snapshot(f, [], False), snapshot(close, [], False), True, 0, 0)[0].startswith("output[0]: not equal")
    assert "dtype" in compare(snapshot(f, [], False), snapshot(f.double(), [], False), False, 1e-6, 1e-6)[0]


def test_snapshot_includes_view_bases_and_grads():
    base = torch.zeros(6)
    w = torch.ones(2, requires_grad=True)
    (w * 2).sum().backward()
    labels = [label for label, _ in snapshot(None, [base[1:3], w], grads=True).items]
    assert labels == ["output[0]", "memory shared by the outputs", "input[0]", "input[0]._base", "input[1]",
                      "input[1].grad"]


# --------------------------------------------------------------------------- coverage


def test_rule_catalog_of_shipped_rules():
    rules = {r.name: r for r in cov.rule_catalog(shipped_rule_files())}
    assert set(rules) == {"reinplace_update_into_input", "reinplace_scatter_into_intermediate", "reinplace_scatter_into_view_of_input",
                          "materialize_source_for_inductor", "privatize_for_inductor", "materialize_copy_back_source",
                          "read_input_before_its_copy_back", "commuted_add_into_input", "commuted_mul_into_input",
                          "while_loop_captured_mutations", "cond_captured_mutations", "attention_reads_grouped_heads",
                          "keep_values_read_after_copy_back", "write_back_custom_op", "copy_arguments_sharing_written_memory",
                          "copy_inputs_a_call_writes", "privatize_custom_op_for_inductor", "materialize_reads_before_call_for_inductor",
                          "materialize_copy_back_source_for_inductor", "copy_symbolic_offset_arguments_for_inductor",
                          "share_dtype_viewed_outputs_for_inductor", "copy_returned_update_for_inductor",
                          "copy_arguments_laid_out_otherwise_for_inductor"}
    assert rules["reinplace_update_into_input"].sections == ("match", "where", "safe")
    assert rules["reinplace_scatter_into_intermediate"].sections == ("match", "where", "profitable")
    assert rules["while_loop_captured_mutations"].sections == ("match", "where")
    # `base: input` can reject a scatter; `base: node` and a dependency's `on` cannot.
    assert rules["reinplace_update_into_input"].match_can_reject
    assert not rules["reinplace_scatter_into_intermediate"].match_can_reject
    assert not rules["while_loop_captured_mutations"].match_can_reject
    assert re.search(r"reinplace\.rules:\d+$", rules["reinplace_update_into_input"].location)


def test_coverage_on_synthetic_candidates():
    rules = [cov.RuleInfo("r1", "x:1", ("match", "where", "safe")), cov.RuleInfo("r2", "x:9", ("match", "where"))]
    all_stages = ("match", "where", "safe", "rewrite")
    runs = [
        ("pos", [cand("r1", None, reached=all_stages), cand("r2", None, reached=("match", "where", "rewrite"))]),
        ("neg", [cand("r1", "safe", reached=("match", "where", "safe"))]),
        ("other", [cand("unknown_rule", "where")]),
    ]
    report = {c.rule.name: c for c in cov.compute(rules, runs)}
    r1, r2 = report["r1"], report["r2"]
    assert r1.fired_by == ["pos"] and r1.rejected_by == ["neg"]
    assert [s.stopped for s in r1.sections] == [[], [], ["neg"]]
    assert [s.reached_by for s in r1.sections] == [["pos", "neg"]] * 3
    # Sections that never said no are uncovered: no case shows the check can reject.
    assert r1.problems == ["section `match` never stopped a candidate", "section `where` never stopped a candidate"]
    assert not r2.covered and "no negative case (no case rejects it)" in r2.problems
    more = runs + [("neg_m", [cand("r1", "match", reached=("match",))]),
                   ("neg_w", [cand("r1", "where", reached=("match", "where"))])]
    report = {c.rule.name: c for c in cov.compute(rules, more)}
    assert report["r1"].covered
    text = cov.format_coverage(list(report.values()))
    assert "r2 (x:9): UNCOVERED" in text and "1/2 rules covered; uncovered: r2" in text
    # A section nobody reaches is uncovered too.
    only_match = cov.compute(rules[:1], [("c", [cand("r1", "match", reached=("match",)), cand("r1", None, reached=("match",))])])
    assert only_match[0].problems == ["section `where` never reached", "section `safe` never reached"]
    # A match that cannot reject (only binds operands) need not stop anything.
    unconstrained = cov.RuleInfo("r3", "x:20", ("match", "where"), match_can_reject=False)
    r3 = cov.compute([unconstrained], [("p", [cand("r3", None, reached=("match", "where", "rewrite"))]),
                                       ("n", [cand("r3", "where", reached=("match", "where"))])])[0]
    assert r3.covered


def test_strict_coverage_exit_status(tmp_path):
    rules = _rules_copy(tmp_path / "rules", broken=False)
    positive = CaseResult("reinplace/p", "p.py", "eager", candidates=[
        cand("reinplace_update_into_input", None, reached=("match", "where", "profitable", "safe", "rewrite"))])
    out = io.StringIO()
    assert print_run([positive], coverage=True, strict=False, rules=[str(rules)], out=out) == 0
    out = io.StringIO()
    assert print_run([positive], coverage=True, strict=True, rules=[str(rules)], out=out) == 1
    assert "reinplace_update_into_input" in out.getvalue() and "no negative case" in out.getvalue()


# --------------------------------------------------------------------------- output


def test_summary_table_and_progress():
    results = [CaseResult("reinplace/a", "a.py", "eager", rules=["r"], expected="fire r", got="fired r", seconds=0.5),
               CaseResult("reinplace/b", "b.py", "eager", status="fail", expected="reject r@safe",
                          got="fired r", seconds=7.0, failures=["x"])]
    text = table(results)
    assert text.splitlines()[0].split() == ["case", "rule", "expected", "got", "time", "status"]
    assert "7.0s slow" in text and "0.5s slow" not in text
    assert "1/2 passed, 1 failed" in text
    stream = io.StringIO()
    progress = Progress(2, stream=stream, tty=False)
    for r in results:
        progress.update(r)
    assert stream.getvalue().splitlines() == ["[1/2] PASS  reinplace/a (0.5s)", "[2/2] FAIL  reinplace/b (7.0s)"]
    tty = io.StringIO()
    progress = Progress(2, stream=tty, tty=True, width=4)
    progress.update(results[1])
    assert tty.getvalue().startswith("\r[##..] 1/2 1 failed")


# --------------------------------------------------------------------------- a broken rule


NEGATIVE = CORPUS / "reinplace" / "index_put_old_value_read_after.py"


def _without_safe_sections(src: str) -> str:
    # Drop every `safe` section (its line and continuation lines up to the `rewrite` line).
    return re.sub(r"^  safe .*?(?=^  rewrite )", "", src, flags=re.M | re.S)


def _rules_copy(dest: Path, broken: bool) -> Path:
    """A copy of the shipped rules (includes resolve inside it); returns its reinplace.rules."""
    shutil.copytree(ROOT / "rules", dest)
    path = dest / "reinplace.rules"
    if broken:
        path.write_text(_without_safe_sections(path.read_text()))
    return path


def test_broken_rule_is_caught_by_the_legality_check_and_the_case_says_so(tmp_path):
    """Without its `safe` sections the indexed-update rule would write in place while the old
    value is still read.  The legality check refuses the rewrite (the program stays right), and
    the negative case fails anyway, with the trace, because it pinned the stop at `safe`."""
    good = _rules_copy(tmp_path / "good", broken=False)
    bad = _rules_copy(tmp_path / "bad", broken=True)
    assert not re.search(r"^\s*safe\b", bad.read_text(), flags=re.M)

    control = run_case(NEGATIVE, rules=[str(good.parent)])
    assert control.ok, control.details()

    broken = run_case(NEGATIVE, rules=[str(bad.parent)])
    assert broken.status == "fail"
    text = broken.details()
    assert "matches_eager" not in text                      # the program is still right
    assert "rejects: reinplace_update_into_input at safe" in text
    assert "why-not trace:" in text
    assert f"reinplace_update_into_input @ {bad}" in text
    assert ("rejected by legality: output 0 would change; first difference: `add` (aten.add) reads `arg0_1` "
            "after `index_put__default` (aten.index_put_) overwrote it") in text


def test_cli_reports_failure_and_trace(tmp_path):
    bad = _rules_copy(tmp_path / "rules", broken=True)
    proc = subprocess.run([sys.executable, "-m", "rewrite", "test", "-j", "1", "--rules", str(bad.parent), str(NEGATIVE)],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "why-not trace:" in proc.stdout
    assert "reinplace/index_put_old_value_read_after" in proc.stdout and "FAIL" in proc.stdout
    assert "[1/1] FAIL" in proc.stderr  # progress, not a tty here


# --------------------------------------------------------------------------- pytest collection


def test_pytest_collects_eager_and_inductor_items():
    case = CORPUS / "reinplace" / "slice_add_into_input.py"
    other = CORPUS / "reinplace" / "select_row_update.py"
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           str(case), str(other)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    ids = [line for line in proc.stdout.splitlines() if "::" in line]
    assert ids == ["tests/corpus/reinplace/slice_add_into_input.py::eager",
                   "tests/corpus/reinplace/slice_add_into_input.py::inductor",
                   "tests/corpus/reinplace/select_row_update.py::eager"]


AHEAD_CASE = '''\
"""doc"""
import os
import warnings

import torch

EXPECT = """
{expect}
matches_eager
"""


def fn(x):
    return x + 1


def inputs():
    print("ran in process", os.getpid())
    {warn}
    return (torch.ones(2),)
'''


def test_corpus_cases_run_ahead_in_a_worker_and_report_as_if_run_in_pytest(tmp_path):
    """With --corpus-jobs 2 a worker process runs corpus cases ahead of pytest's own, from the
    last one: each item still gets its case's result, and what a case run in the worker printed
    and warned shows in pytest's report as if it had run there."""
    corpus = tmp_path / "corpus" / "reinplace"
    corpus.mkdir(parents=True)
    cases = {"first_fails": ("fires: reinplace_update_into_input", "pass"),
             "second": ("", "pass"),
             "third_warns": ("", 'warnings.warn("a warning from the case in the worker")')}
    for name, (expect, warn) in cases.items():
        (corpus / f"{name}.py").write_text(AHEAD_CASE.format(expect=expect, warn=warn))
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    proc = subprocess.run([sys.executable, "-m", "pytest", "-p", "rewrite.testing.pytest_plugin", "-p", "no:cacheprovider",
                           "--corpus-jobs", "2", "-rA", "corpus"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, PYTHONPATH=str(ROOT)))
    out = proc.stdout
    assert proc.returncode == 1, out + proc.stderr
    assert "1 failed, 2 passed" in out, out
    assert "reinplace/first_fails [eager]: FAIL" in out and "reinplace_update_into_input did not fire" in out
    ran_in = {name: re.search(rf"{name} \[eager\] _+\n.*?ran in process (\d+)", out, re.S).group(1) for name in cases}
    assert ran_in["first_fails"] != ran_in["third_warns"], out     # pytest's process ran the first, the worker the last
    assert "a warning from the case in the worker" in out.split("warnings summary")[1], out


def test_compile_raises_expectation(tmp_path):
    """`compile_raises` holds only when eager runs the program and the compiled one raises the
    named error with the text."""
    source = '''\
"""doc"""
import torch

EXPECT = """
compile_raises: ZeroDivisionError because division by zero
"""


def fn(x):
    return x + 1


def inputs():
    return (torch.ones(2),)
'''
    path = write(tmp_path, source, "refuse.py")
    case = parse_case(path)
    (e,) = case.of_kind("compile_raises")
    assert (e.subject, e.because) == ("ZeroDivisionError", "division by zero")
    result = run_case(path, base="eager", rules=[])
    assert result.status == "fail"
    assert "the compiled program ran all 3 calls" in result.failures[0]


def test_snapshots_compare_which_memory_the_outputs_are():
    """An output that is its input's memory in one run and a tensor of its own in the other
    differs, even with equal values: the caller can write through it."""
    from rewrite.testing.state import compare, snapshot

    x = torch.zeros(4)
    own = snapshot((x.clone(),), (x,), grads=False)
    alias = snapshot((x,), (x,), grads=False)
    view = snapshot((x[1:],), (x,), grads=False)
    assert compare(own, own, exact=True, rtol=0, atol=0) == []
    [problem] = compare(own, alias, exact=True, rtol=0, atol=0)
    assert problem.startswith("memory shared by the outputs")
    whole_view = snapshot((x.view(2, 2).view(4),), (x,), grads=False)
    assert compare(alias, whole_view, exact=True, rtol=0, atol=0) == []      # both are x's memory
    two = snapshot((x, x), (torch.ones(1),), grads=False)
    assert compare(snapshot((x, x.clone()), (torch.ones(1),), grads=False), two, True, 0, 0)
