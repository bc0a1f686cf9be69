from pathlib import Path

import pytest

from rewrite.lang.diagnostics import RulesError
from rewrite.lang.parser import parse
from rewrite.lang.printer import format_source, pretty

MESSY = '''

# header comment


opset  b=aten.add|aten.sub   # trailing on opset
opset longer_name = b
# about the rule
rule r   # on the header
  # before match
  match x = b(y,  ...)
  where is_input(y) and not is_view(y) and not used_after(y, x) and not is_input(x) and realized(y)
  rewrite reinplace(x) ;erase(x)
facts saved_for_backward
  # before output
  output: aten.exp
  input: aten.log


# trailing comment
'''

FORMATTED = '''# header comment

opset b           = aten.add | aten.sub  # trailing on opset
opset longer_name = b
# about the rule
rule r  # on the header
  # before match
  match      x = b(y, ...)
  where      is_input(y)
             and not is_view(y)
             and not used_after(y, x)
             and not is_input(x)
             and realized(y)
  rewrite    reinplace(x); erase(x)
facts saved_for_backward
  # before output
  output: aten.exp
  input:  aten.log

# trailing comment
'''


def test_format_keeps_comments_and_is_idempotent():
    assert format_source(MESSY, "m.rules") == FORMATTED
    assert format_source(FORMATTED, "m.rules") == FORMATTED
    assert parse(FORMATTED) == parse(MESSY)


def test_pretty_of_parsed_shipped_files_roundtrips():
    for path in sorted((Path(__file__).resolve().parents[2] / "rules").glob("*.rules")):
        module = parse(path.read_text(), str(path))
        assert parse(pretty(module)) == module


def test_format_refuses_broken_files():
    with pytest.raises(RulesError, match="unexpected"):
        format_source("rule r\n  match = aten.add(x)\n", "b.rules")


def test_fmt_command_rewrites_and_checks(write, cli):
    path = write("m.rules", MESSY)
    assert cli("fmt", "--check", path) == (1, f"would reformat {path}\n")
    assert path.read_text() == MESSY
    assert cli("fmt", path)[0] == 0
    assert path.read_text() == FORMATTED
    assert cli("fmt", "--check", path) == (0, "")
    broken = write("broken.rules", "rule\n")
    code, out = cli("fmt", broken)
    assert code == 2 and f"{broken}:1:5: error:" in out
