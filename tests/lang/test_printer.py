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


def _rule_files():
    root = Path(__file__).resolve().parents[2]
    files = sorted((root / "rules").glob("*.rules")) + sorted((root / "tests" / "corpus").rglob("*.rules"))
    files += sorted((root / "tests" / "lang" / "malformed").rglob("*.rules"))
    return [f for f in files if f.is_file() and not f.is_symlink()]


def test_fmt_is_idempotent_on_every_rule_file_that_parses():
    formatted = 0
    for path in _rule_files():
        text = path.read_bytes().decode("utf-8", errors="replace")
        try:
            once = format_source(text, str(path))
        except RulesError:
            continue
        assert format_source(once, str(path)) == once, path
        assert parse(once) == parse(text), path
        formatted += 1
    assert formatted >= 10


COMMENTED = '''opset a = aten.add
  # inside a one-line item
  | aten.sub
opset b = aten.mul
facts t
  output: aten.exp  # end of line
  # inside the last group
        | aten.tanh
rule r
  match y = aten.add(x, ...)
  where is_input(x)
    # inside the last section
    and is_input(y)
'''


def test_comments_inside_items_settle_in_one_pass():
    once = format_source(COMMENTED)
    assert format_source(once) == once
    assert once == ('# inside a one-line item\nopset a = aten.add | aten.sub\nopset b = aten.mul\nfacts t\n'
                    '  output: aten.exp | aten.tanh  # end of line\n# inside the last group\nrule r\n'
                    '  match      y = aten.add(x, ...)\n  where      is_input(x) and is_input(y)\n'
                    '# inside the last section\n')
