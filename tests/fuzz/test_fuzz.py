"""Tests of `rewrite fuzz`'s parts: deterministic generation, the program edits, the minimizer on
a synthetic failure, corpus-case emission, the oracle's judgement and classification, coverage
steering, and the command line.  The seeded run itself is tests/fuzz/test_fuzz_seeded.py."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest
import torch

from rewrite.cli import main
from rewrite.engine.report import Candidate
from rewrite.fuzz.oracle import classify, overall, same_failure
from rewrite.fuzz.features import FeatureError, Knobs, parse_features
from rewrite.fuzz.generator import build, generate
from rewrite.fuzz.oracle import Outcome, Verdict, judge
from rewrite.fuzz.program import Param, Program, Stmt, minimize
from rewrite.fuzz.reference import InvalidProgram, reference
from rewrite.fuzz.session import case_text, write_case
from rewrite.fuzz.steer import Coverage, Steering
from rewrite.testing.case import parse_case
from rewrite.testing.coverage import RuleInfo
from rewrite.testing.execute import Run
from rewrite.testing.runner import run_case
from rewrite.testing.state import Snapshot


def stmt(text, defines=(), uses=(), kind="mutate", bodies=(), functional=None):
    return Stmt(kind=kind, lines=tuple(text.split("\n")), defines=tuple((d, "value") for d in defines),
                uses=frozenset(uses), bodies=bodies, functional=tuple(functional.split("\n")) if functional else None)


def program(body, returns=(), params=("x0", "x1"), mode="inference", dynamic=False):
    return Program(seed=5, index=7, mode=mode, dynamic=dynamic, setup=(),
                   params=tuple(Param(p, "torch.arange(6.0)", "data") for p in params), body=tuple(body),
                   returns=tuple(returns))


# --------------------------------------------------------------------------- generation


def test_same_seed_same_source_different_seed_different_source():
    knobs = Knobs()
    first = [build(3, i, 0, knobs).source() for i in range(12)]
    again = [build(3, i, 0, knobs).source() for i in range(12)]
    other = [build(4, i, 0, knobs).source() for i in range(12)]
    assert first == again
    assert first != other
    assert len(set(first)) == len(first)


def test_generate_is_deterministic_and_gives_a_fair_program():
    p1, run1, attempts1 = generate(11, 3, Knobs())
    p2, run2, attempts2 = generate(11, 3, Knobs())
    assert p1.source() == p2.source() and attempts1 == attempts2 and p1.dynamic == p2.dynamic
    assert run1.error is None and len(run1.snapshots) == 3
    reference(p1)   # the kept program passes the validity checks again


def test_features_restrict_what_is_generated():
    knobs = Knobs(parse_features("indexed"))
    kinds = Counter(s.kind for i in range(30) for s in build(1, i, 0, knobs).body)
    assert kinds["indexed"] > 0
    assert not kinds.keys() & {"cond", "while", "view", "copy", "shift", "old", "compute"}
    assert all(build(1, i, 0, knobs).mode == "inference" for i in range(30))


def test_unknown_feature_is_a_clear_error():
    with pytest.raises(FeatureError, match="unknown feature.*bogus"):
        parse_features("views,bogus")
    assert parse_features("all") is None


def test_knob_multipliers_shift_choices():
    rng = random.Random(0)
    plain = Counter(Knobs().pick(rng, "stmt") for _ in range(2000))
    rng = random.Random(0)
    steered = Counter(Knobs(multipliers={"stmt:shift": 5.0}).pick(rng, "stmt") for _ in range(2000))
    assert steered["shift"] > 2 * plain["shift"]


def test_order_dependent_program_is_rejected():
    # The diagonal (flat 0, 4, 8) is written while flat 0, 2, 4 are read: eager reads flat[4]
    # after writing it, the functional meaning reads it before.  Eager does not refuse this.
    write = "x0.diagonal().add_(x0.view(-1)[0:5:2])"
    body = [stmt(write, uses={"x0"}, functional=write.replace("[0:5:2]", "[0:5:2].clone()"))]
    p = Program(seed=0, index=0, mode="inference", dynamic=False, setup=(),
                params=(Param("x0", "torch.arange(9.0).view(3, 3)", "data"),), body=tuple(body), returns=())
    with pytest.raises(InvalidProgram, match="depends on the order of reads and writes"):
        reference(p)
    fine = Program(seed=0, index=0, mode="inference", dynamic=False, setup=(), params=p.params,
                   body=(stmt("x0.diagonal().add_(x0[1])", uses={"x0"},
                              functional="x0.diagonal().add_(x0[1].clone())"),), returns=("x0",))
    assert reference(fine).error is None


# --------------------------------------------------------------------------- program edits


def test_dropping_a_statement_drops_its_dependents_and_returns():
    p = program([stmt("t1 = x0 * 2", defines=["t1"], uses={"x0"}),
                 stmt("x1.add_(1.0)", uses={"x1"}),
                 stmt("t2 = t1 + 1", defines=["t2"], uses={"t1"}),
                 stmt("x0.mul_(2)", uses={"x0"})], returns=("t2", "x1"))
    smaller = p.without_statement(0)
    assert [s.lines[0] for s in smaller.body] == ["x1.add_(1.0)", "x0.mul_(2)"]
    assert smaller.returns == ("x1",)


def test_nested_statements_render_and_can_be_dropped():
    inner = (stmt("x0[0] = 1.0", uses={"x0"}), stmt("x1.add_(2.0)", uses={"x1"}))
    cf = Stmt(kind="cond", lines=("def t(p):", "    {0}", "    return p.clone()", "def f(p):", "    {1}",
                                   "    return p * 0", "r1 = torch.cond(x0.sum() > 0, t, f, (x0,))"),
              defines=(("r1", "value"),), uses=frozenset({"x0"}), bodies=(inner, ()))
    p = program([cf], returns=("r1",))
    assert "    x0[0] = 1.0" in p.source() and "    x1.add_(2.0)" in p.source()
    variants = dict(p.reductions())
    assert any("nested" in d for d in variants)
    dropped = [v for d, v in p.reductions() if "nested" in d][0]
    assert dropped.size == 2
    assert p.size == 3


# --------------------------------------------------------------------------- minimizer


def test_minimizer_keeps_exactly_what_the_failure_needs():
    body = [stmt(f"x0.add_({i}.0)", uses={"x0"}) for i in range(6)]
    body.insert(2, stmt("t9 = x1 * 2", defines=["t9"], uses={"x1"}))
    body.append(stmt("t10 = t9 + 1", defines=["t10"], uses={"t9"}))
    p = program(body, returns=("t10", "x0"), dynamic=True)
    calls = []

    def fails(candidate):
        calls.append(candidate)
        text = candidate.source()
        return "x0.add_(3.0)" in text and "t10 = t9 + 1" in text

    shrunk = minimize(p, fails, max_evaluations=100)
    assert shrunk.complete
    assert [s.lines[0] for s in shrunk.program.body] == ["t9 = x1 * 2", "x0.add_(3.0)", "t10 = t9 + 1"]
    assert shrunk.program.returns == () and not shrunk.program.dynamic
    assert [pp.name for pp in shrunk.program.params] == ["x0", "x1"]
    assert shrunk.evaluations == len(calls) <= 100
    again = minimize(p, fails, max_evaluations=100)
    assert again.program.source() == shrunk.program.source() and again.evaluations == shrunk.evaluations


def test_minimizer_stops_at_its_budget():
    p = program([stmt(f"x0.add_({i}.0)", uses={"x0"}) for i in range(8)])
    shrunk = minimize(p, lambda c: True, max_evaluations=3)
    assert not shrunk.complete and shrunk.evaluations == 3 and shrunk.program.size == 5


# --------------------------------------------------------------------------- oracle and classes


def snap(value):
    return Snapshot([("output[0]", torch.tensor([value]))])


def test_judge_finds_wrong_results_and_crashes():
    ref = Run(snapshots=[snap(1.0), snap(2.0), snap(3.0)])
    assert judge("b", Run(snapshots=[snap(1.0), snap(2.0), snap(3.0)]), ref, exact=True).status == "ok"
    wrong = judge("b", Run(snapshots=[snap(1.0), snap(2.5), snap(3.0)]), ref, exact=True)
    assert wrong.status == "wrong" and wrong.call == 2 and "output[0]" in wrong.detail
    close = judge("b", Run(snapshots=[snap(1.0), snap(2.000001), snap(3.0)]), ref, exact=False)
    assert close.status == "ok"
    crash = judge("b", Run(error=RuntimeError("boom\nmore"), failed_call=0), ref, exact=True)
    assert (crash.status, crash.detail, crash.error_type, crash.call) == ("crash", "boom", "RuntimeError", 1)
    from torch._dynamo.exc import Unsupported

    assert judge("b", Run(error=Unsupported("graph break"), failed_call=0), ref, exact=True).status == "unsupported"


def out(status, error_type=""):
    return Outcome("x", status, error_type=error_type)


@pytest.mark.parametrize("ours, stock, expected", [
    ("ok", "ok", "ok"), ("wrong", "ok", "ours"), ("crash", "ok", "ours"), ("ok", "wrong", "stock"),
    ("ok", "crash", "stock"), ("wrong", "wrong", "both"), ("crash", "crash", "both"), ("wrong", "crash", "both"),
    ("unsupported", "unsupported", "skipped"), ("unsupported", "ok", "ours"), ("ok", None, "ok"),
    ("wrong", None, "ours"),
])
def test_classify(ours, stock, expected):
    outcomes = {"rewrite-inductor": out(ours)}
    if stock:
        outcomes["inductor"] = out(stock)
    assert classify(outcomes, "inductor") == expected


@pytest.mark.parametrize("base, outcomes, expected", [
    # stock wrong too, but aot_eager right: the failure is ours (issue 23)
    ("inductor", {"rewrite-inductor": "wrong", "inductor": "wrong", "aot_eager": "ok"}, "ours"),
    ("inductor", {"rewrite-inductor": "wrong", "inductor": "wrong", "aot_eager": "wrong"}, "both"),
    ("inductor", {"rewrite-inductor": "crash", "inductor": "crash", "aot_eager": "crash"}, "both"),
    ("inductor", {"rewrite-inductor": "ok", "inductor": "wrong", "aot_eager": "wrong"}, "stock"),
    # the eager base: the rules-free pipeline and aot_eager; stock Inductor, which compiles what
    # no eager run of a graph can execute (symbolic sizes), is no reference for it
    ("eager", {"rewrite-eager": "wrong", "pipeline-eager": "wrong", "aot_eager": "ok"}, "ours"),
    ("eager", {"rewrite-eager": "wrong", "pipeline-eager": "wrong", "aot_eager": "wrong", "inductor": "ok"}, "both"),
    ("eager", {"rewrite-eager": "wrong", "pipeline-eager": "wrong", "aot_eager": "wrong"}, "both"),
    # a rewrite-inductor that is right says nothing of the eager base
    ("eager", {"rewrite-eager": "wrong", "pipeline-eager": "wrong", "aot_eager": "wrong",
               "rewrite-inductor": "ok"}, "both"),
    ("eager", {"rewrite-eager": "ok"}, "ok"),
])
def test_classify_with_reference_pipelines(base, outcomes, expected):
    assert classify({name: out(status) for name, status in outcomes.items()}, base) == expected


@pytest.mark.parametrize("judge, judge_fell_back, expected", [
    ("ok", False, "ours"),       # our compile failed where the judge's did not: ours, though right
    ("ok", True, "stock"),       # the judge's compile failed too
    ("crash", False, "stock"), ("wrong", False, "stock"),
])
def test_a_rewrite_that_fell_back(judge, judge_fell_back, expected):
    rewrite = Outcome("rewrite-inductor", "ok", fallback="LoweringException: boom")
    assert "fell back to torch's reference: LoweringException: boom" in rewrite.describe()
    other = Outcome("inductor", judge, fallback="AssertionError" if judge_fell_back else "")
    assert classify({"rewrite-inductor": rewrite, "inductor": other}, "inductor") == expected


def test_a_reference_right_only_by_its_own_fallback_is_not_right():
    """The rules-free pipeline whose compile failed runs eagerly and so matches eager: torch's
    pipeline could not compile the program, so a rewrite wrong on it is "both", not ours (seed 0
    p199 and p226: `while_loop` functions that write their inputs, which torch refuses)."""
    rewrite = Outcome("rewrite-eager", "wrong")
    pipeline = Outcome("pipeline-eager", "ok", fallback="RuntimeError: cond_fn might be modifying the input!")
    refused = Outcome("aot_eager", "crash", error_type="RuntimeError")
    outcomes = {"rewrite-eager": rewrite, "pipeline-eager": pipeline, "aot_eager": refused}
    assert classify(outcomes, "eager") == "both"
    outcomes["pipeline-eager"] = Outcome("pipeline-eager", "ok")
    assert classify(outcomes, "eager") == "ours"


def test_overall_takes_the_worst_class():
    assert overall(["ok", "stock", "ours"]) == "ours"
    assert overall(["ok", "both", "stock"]) == "both"
    assert overall(["ok", "ok"]) == "ok"
    assert overall(["skipped"]) == "skipped"


def test_same_failure_needs_the_same_kind_of_failure():
    want = Verdict({"rewrite-eager": out("crash", "RuntimeError"), "pipeline-eager": out("ok")}, {"eager": "ours"})
    same = Verdict({"rewrite-eager": out("crash", "RuntimeError"), "pipeline-eager": out("ok")}, {"eager": "ours"})
    other_error = Verdict({"rewrite-eager": out("crash", "KeyError"), "pipeline-eager": out("ok")}, {"eager": "ours"})
    wrong_instead = Verdict({"rewrite-eager": out("wrong"), "pipeline-eager": out("ok")}, {"eager": "ours"})
    assert same_failure(same, "eager", "ours", want)
    assert not same_failure(other_error, "eager", "ours", want)
    assert not same_failure(wrong_instead, "eager", "ours", want)


def test_failures_to_minimize_are_one_per_kind_first():
    from rewrite.fuzz.session import select_for_minimizing
    from rewrite.fuzz.worker import ProgramResult

    def result(index, cls, error_type):
        bad = Outcome("rewrite-eager", "crash", error_type=error_type)
        return ProgramResult(index, program=program([]), verdict=Verdict(
            {"rewrite-eager": bad, "pipeline-eager": out("ok" if cls == "ours" else "crash", error_type)},
            {"eager": cls}))

    results = [result(0, "ok", ""), result(1, "both", "E1"), result(2, "ours", "E1"), result(3, "ours", "E1"),
               result(4, "ours", "E2"), result(5, "both", "E1")]
    results[0].verdict.outcomes["rewrite-eager"] = out("ok")
    assert [r.index for r in select_for_minimizing(results, 3)] == [1, 2, 4]
    assert [r.index for r in select_for_minimizing(results, 10)] == [1, 2, 3, 4, 5]


# --------------------------------------------------------------------------- corpus cases


def test_emitted_case_parses_and_runs(tmp_path):
    p, _, _ = generate(2, 0, Knobs(parse_features("views,indexed")))
    verdict = Verdict({"rewrite-eager": Outcome("rewrite-eager", "wrong", detail="input[0]: differs", call=2),
                       "pipeline-eager": Outcome("pipeline-eager", "ok")}, {"eager": "ours"})
    path = write_case(tmp_path / "fuzz", p, verdict, "eager", "rewrite fuzz --seed 2 --n 1", original_size=p.size + 3)
    case = parse_case(path)
    assert case.mode == p.mode and case.calls == 3 and case.dynamic == p.dynamic
    assert case.has("matches_eager") and not case.inductor
    doc = " ".join(case.doc.split())
    assert doc.startswith(f"Found by `rewrite fuzz --seed 2 --n 1` (program 0), minimized from {p.size + 3} to "
                          f"{p.size} statements: ours on base eager.")
    assert "rewrite-eager: differs from eager on call 2: input[0]: differs pipeline-eager: matches eager" in doc
    fn, make_inputs, _ = case.load()
    fn(*make_inputs())   # the case's own code runs


def test_emitted_case_runs_with_the_corpus_runner(tmp_path):
    body = [stmt("x0[1:3].add_(x1[0:2])", uses={"x0", "x1"}, functional="x0[1:3].add_(x1[0:2].clone())"),
            stmt("o1 = x0.clone()", defines=["o1"], uses={"x0"}),
            stmt("x1.index_put_((torch.tensor([0, 2]),), torch.tensor(2.0), accumulate=True)", uses={"x1"})]
    p = program(body, returns=("o1",))
    verdict = Verdict({"rewrite-eager": Outcome("rewrite-eager", "ok")}, {"eager": "ok"})
    path = write_case(tmp_path / "fuzz", p, verdict, "eager", "rewrite fuzz --seed 5")
    result = run_case(path, base="eager")
    assert result.ok, result.details()


def test_emitted_control_flow_case_runs_with_the_corpus_runner(tmp_path):
    # Eager torch.cond compiles its branches with Dynamo, which looks the function's module up
    # in sys.modules (a case module missing there made eager itself raise ModuleNotFoundError).
    cf = Stmt(kind="cond", lines=(
        "def true_fn_3(p):", "    {0}", "    return p.clone()", "def false_fn_3(p):", "    {1}", "    return p * 0",
        "r3 = torch.cond(x1.sum() > 0, true_fn_3, false_fn_3, (x0,))"), uses=frozenset({"x0", "x1"}),
        bodies=((stmt("x1.view(3, 5).scatter_add_(0, torch.tensor([[1, 2, 2, 1, 1], [1, 1, 0, 2, 1]]), "
                      "x1.t()[1:3].tanh())", uses={"x1"}),), ()))
    p = Program(seed=0, index=139, mode="inference", dynamic=False, setup=("base0 = torch.randint(-4, 5, (5, 3)).float()",),
                params=(Param("x0", "base0", "data"), Param("x1", "base0", "data")),
                body=(stmt("x1[-2][torch.tensor([0, 2])] = torch.tensor(1.0, dtype=torch.float32)", uses={"x1"}), cf),
                returns=())
    verdict = Verdict({"rewrite-eager": Outcome("rewrite-eager", "ok")}, {"eager": "ok"})
    result = run_case(write_case(tmp_path / "fuzz", p, verdict, "eager", "rewrite fuzz"), base="eager")
    assert not [f for f in result.failures if f.startswith("eager raised")], result.details()


def test_emitted_case_for_inductor_says_inductor_and_escapes_quotes():
    p = program([stmt("x0.add_(1.0)", uses={"x0"})], returns=("x0",))
    verdict = Verdict({"rewrite-inductor": Outcome("rewrite-inductor", "crash", detail='bad """ quote \\ here',
                                                   error_type="RuntimeError", call=1),
                       "inductor": Outcome("inductor", "ok")}, {"inductor": "ours"})
    text = case_text(p, verdict, "inductor", "rewrite fuzz --seed 5")
    case = parse_case("fuzz/fuzz_s5_p7.py", text)
    assert case.inductor and case.has("matches_eager")
    assert 'bad """ quote \\ here' in case.doc


# --------------------------------------------------------------------------- coverage steering


def cand(rule, reached, stopped_at):
    return Candidate(rule=rule, location="r.rules:1", node="n", graph="inference", stopped_at=stopped_at,
                     reached=tuple(reached))


def test_coverage_counts_items_and_reports_new_ones():
    cov = Coverage([RuleInfo("r", "r.rules:1", ("match", "where", "safe"))])
    new = cov.add([cand("r", ["match", "where"], "where"), cand("other", ["match"], "match")])
    assert new == {("r", "reached", "match"), ("r", "reached", "where"), ("r", "stopped", "where")}
    assert cov.add([cand("r", ["match", "where"], "where")]) == set()
    assert cov.add([cand("r", ["match", "where", "safe"], None)]) == {("r", "reached", "safe"), ("r", "fired", "")}
    assert cov.reached[("r", "where")] == 3 and cov.stopped[("r", "where")] == 2 and cov.fired["r"] == 1
    assert ("r", "stopped", "safe") in cov.uncovered()
    table = cov.table()
    assert "r (r.rules:1): fired in 1" in table and "safe" in table and "never stopped" in table


def test_steering_rewards_the_knobs_of_programs_that_cover_something_new():
    cov = Coverage([RuleInfo("r", "r.rules:1", ("match", "where"))])
    steering = Steering(cov)
    p = build(0, 0, 0, Knobs())
    new = cov.add([cand("r", ["match"], "match")])
    steering.observe(p, new, [])
    assert steering.pool == [p]
    assert all(steering.multipliers[k] > 1 for k in set(p.knobs))
    before = dict(steering.multipliers)
    steering.end_batch()
    assert all(1 < steering.multipliers[k] < before[k] for k in before)


def test_steering_mutates_programs_on_the_frontier_of_uncovered_items():
    cov = Coverage([RuleInfo("r", "r.rules:1", ("match", "where", "safe"))])
    steering = Steering(cov)
    near = build(0, 1, 0, Knobs())
    candidates = [cand("r", ["match", "where"], "where")]
    steering.observe(near, cov.add(candidates), candidates)
    assert steering.frontier[("r", "reached", "safe")] == [near]
    states = [steering.task_state(0, i) for i in range(40)]
    mutated = [st for st in states if st.parent is not None]
    assert 5 < len(mutated) < 35
    assert all(st.parent is near for st in mutated)
    assert {st.target for st in mutated} <= {"r:reached:safe", "r:fired", "r:stopped:match"}
    again = steering.task_state(0, 7)
    assert (again.parent is None) == (states[7].parent is None) and again.target == states[7].target
    child, _, _ = generate(0, 99, Knobs(), parent=near)
    assert child.params == near.params and child.mode == near.mode and child.source() != near.source()


# --------------------------------------------------------------------------- command line


def test_cli_rejects_bad_options(capsys):
    assert main(["fuzz", "--features", "views,nope"]) == 2
    assert "unknown feature" in capsys.readouterr().err
    assert main(["fuzz", "--rules", "no/such.rules"]) == 2
    assert "no such rule file" in capsys.readouterr().err
    assert main(["fuzz", "--only", "x"]) == 2
    assert main(["fuzz", "--list-features"]) == 0
    assert "control_flow" in capsys.readouterr().out


def test_cli_small_run_writes_json(tmp_path, capsys):
    path = tmp_path / "fuzz.json"
    status = main(["fuzz", "--seed", "1", "--only", "0,1,2", "--features", "views,indexed,copies", "--dynamic", "never",
                   "--json", str(path), "-q", "--no-minimize", "--out", str(tmp_path / "cases")])
    data = json.loads(path.read_text())
    assert data["programs"] == 3 and data["config"]["seed"] == 1
    assert sum(data["counts"]["all"].values()) == 3
    assert status == (1 if data["counts"]["all"].get("ours") else 0)
    assert "rewrite fuzz: 3 programs" in capsys.readouterr().out
    assert len(list((tmp_path / "cases").glob("*.py"))) == len(data["failures"])


def _stock_failure(inductor: str, source: str, fired: list) -> dict:
    return {"class": "stock", "outcomes": {"inductor": inductor, "rewrite-inductor": "matches eager"},
            "source": source, "fired": fired}


def test_long_run_page_groups_stock_failures_by_symptom():
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
    from fuzz_run import stock_by_symptom, stock_symptom

    loop = "def fn(x):\n    torch.while_loop(c, b, (x,))\n"
    failures = [
        _stock_failure("differs from eager on call 1: input[0]", loop, ["while_loop_captured_mutations"]),
        _stock_failure("differs from eager on call 2: output[0]", "def fn(x):\n    x[1:] = x[:-1].clone()\n",
                       ["reinplace_update_into_input"]),
        _stock_failure("raised on call 1: RuntimeError: cond_true might be modifying the input!", loop,
                       ["cond_captured_mutations"]),
        _stock_failure("raised on call 1: IndexError: index 7 is out of bounds for dimension 0 with size 4", "", []),
        {"class": "both", "outcomes": {"inductor": "differs"}, "source": "", "fired": []},
    ]
    assert [stock_symptom(f) for f in failures[:4]] == [
        "wrong values, with `cond`/`while_loop`", "wrong values, straight-line program",
        "torch refuses it: a `cond`/`while_loop` function mutates a captured tensor",
        "raises IndexError: index N is out of bounds for dimension N with size N"]
    table = "\n".join(stock_by_symptom(failures))
    assert "fails 4 programs" in table
    assert "| wrong values, straight-line program | 1 | `reinplace_update_into_input` 1 |" in table
    assert "| raises IndexError: index N is out of bounds for dimension N with size N | 1 | `(none)` 1 |" in table
    assert stock_by_symptom(failures[4:]) == []
