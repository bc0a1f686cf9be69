"""EXPECT lines name rules and ops that exist: an unknown rule or op is an error of the case
(it would otherwise pass or fail vacuously), and a rule that exists but is not in the rule set
of the run is reported as not loaded -- before anything is compiled."""
import textwrap
from pathlib import Path

from rewrite.testing.checks import name_problems
from rewrite.testing.expect import parse_expect_line
from rewrite.testing import runner
from rewrite.testing.runner import run_case

ROOT = Path(__file__).resolve().parents[1]


def problems(lines, rules=None):
    return name_problems([parse_expect_line(line) for line in lines], rules)


def test_known_names_pass():
    assert problems(["fires: reinplace_update_into_input", "not fires: privatize_for_inductor",
                     "rejects: while_loop_captured_mutations at match", "absent: aten.slice_scatter",
                     "present: aten.copy_ count=1", "absent: higher_order.while_loop", "matches_eager"]) == []


def test_unknown_rules_and_ops_are_errors():
    assert problems(["not fires: reinplace_scater_into_input", "absent: aten.scater", "present: view_scatter",
                     "absent: nonsense.op"]) == [
        "not fires: reinplace_scater_into_input: unknown rule 'reinplace_scater_into_input': no rule file of "
        "this run defines it; did you mean 'reinplace_update_into_input'?",
        "absent: aten.scater: unknown op 'aten.scater'; did you mean 'aten.scatter'?",
        "present: view_scatter: 'view_scatter' is not an op name; write namespace.op (aten.add) or "
        "namespace.op.overload",
        "absent: nonsense.op: unknown op namespace 'nonsense' in 'nonsense.op'"]


def test_a_rule_of_another_rule_set_is_not_loaded(tmp_path):
    other = tmp_path / "other.rules"
    other.write_text("rule mine\n  match y = aten.add(x, ...)\n  where is_input(x)\n")
    assert problems(["fires: mine"], [str(other)]) == []
    [message] = problems(["fires: reinplace_update_into_input"], [str(other)])
    assert message.startswith("fires: reinplace_update_into_input: rule 'reinplace_update_into_input' is not "
                              "loaded: it is defined in ") and f"but this run uses only {other}" in message


def test_the_runner_reports_them_without_compiling(tmp_path, monkeypatch):
    case = tmp_path / "reinplace" / "typo.py"
    case.parent.mkdir()
    case.write_text(textwrap.dedent('''\
        import torch

        EXPECT = """
        not fires: reinplace_scater_into_input
        matches_eager
        """


        def fn(x):
            return x + 1


        def inputs():
            return (torch.ones(2),)
        '''))
    monkeypatch.setattr(runner, "compile_case", lambda *a, **k: (_ for _ in ()).throw(AssertionError("compiled")))
    result = run_case(case)
    assert result.status == "error" and result.failures == [
        "not fires: reinplace_scater_into_input: unknown rule 'reinplace_scater_into_input': no rule file of this "
        "run defines it; did you mean 'reinplace_update_into_input'?"]
