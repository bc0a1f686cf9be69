"""A corpus case fails when rewrite logs a warning while it compiles and runs, unless a `warns:`
line of its EXPECT block expects that warning; a `warns:` line no warning matches fails too."""
import textwrap

import pytest

from rewrite.testing.expect import ExpectationError, parse_expect_line
from rewrite.testing.runner import run_case

CASE = '''
"""x + d, with a user rule the legality check refuses (it writes an input the program never
mutates): the user has something to look at, so rewrite warns."""
import torch

EXPECT = """
{expect}
matches_eager exact
"""


def fn(x, d):
    return x + d


def inputs():
    return torch.arange(6.0), torch.ones(6)
'''

RULE = """
rule into_input
  match   y = aten.add.Tensor(x: input, other)
  rewrite reinplace(y)
"""


def run(tmp_path, expect: str):
    rules = tmp_path / "mine.rules"
    rules.write_text(textwrap.dedent(RULE))
    case = tmp_path / "mine" / "refused_user_rule.py"
    case.parent.mkdir(exist_ok=True)
    case.write_text(CASE.format(expect=expect).lstrip())
    return run_case(case, base="eager", rules=[rules])


def test_an_unexpected_warning_fails_the_case(tmp_path):
    result = run(tmp_path, "rejects: into_input at legality")
    assert result.status == "fail"
    [failure] = result.failures
    assert failure.startswith("rewrite warned, and no `warns:` line expects it: rule into_input @ ")
    assert "refused by the legality check" in failure


def test_a_warns_line_expects_it(tmp_path):
    result = run(tmp_path, "rejects: into_input at legality\nwarns: refused by the legality check")
    assert result.status == "pass", result.details()


def test_a_warns_line_without_its_warning_fails(tmp_path):
    result = run(tmp_path, "rejects: into_input at legality\nwarns: refused by the legality check\n"
                           "warns: no such warning")
    assert result.failures == ["warns: no such warning: no warning of rewrite contains that"]


def test_warns_needs_its_text():
    assert parse_expect_line("warns: left to the compiler").subject == "left to the compiler"
    with pytest.raises(ExpectationError, match="needs the text"):
        parse_expect_line("warns:")


def test_a_warns_line_on_one_base_holds_on_that_base_only(tmp_path):
    line = parse_expect_line("warns: runs eagerly instead on inductor")
    assert (line.subject, line.base) == ("runs eagerly instead", "inductor")
    assert parse_expect_line("warns: left to the compiler").base is None
    result = run(tmp_path, "rejects: into_input at legality\nwarns: refused by the legality check on eager")
    assert result.status == "pass", result.details()
    result = run(tmp_path, "inductor\nrejects: into_input at legality\nwarns: refused by the legality check on inductor")
    assert result.status == "fail" and "no `warns:` line expects it" in result.failures[0]


def test_any_line_may_hold_on_one_base_only(tmp_path):
    """A repair of a lowering hazard fires on the Inductor base only: its line says so."""
    fires = parse_expect_line("fires: into_input count=1 in inference on inductor")
    assert (fires.kind, fires.subject, fires.count, fires.graph, fires.base) == (
        "fires", "into_input", 1, "inference", "inductor")
    assert parse_expect_line("absent: aten.add on eager").base == "eager"
    assert parse_expect_line("matches_eager exact on eager").exact
    with pytest.raises(ExpectationError, match="takes no base"):
        parse_expect_line("inductor on eager")
    warned = "\nwarns: refused by the legality check"
    result = run(tmp_path, "inductor\nfires: into_input on inductor\nrejects: into_input at legality on eager" + warned)
    assert result.status == "pass", result.details()         # the run is on the eager base
    result = run(tmp_path, "fires: into_input on eager" + warned)
    assert result.status == "fail" and "into_input did not fire" in result.failures[0]
    result = run(tmp_path, "fires: into_input on inductor" + warned)       # no `inductor` line
    assert result.status == "error" and "would never be checked" in result.details()
