"""Rule files are untrusted input: includes stay inside the allowed folders and read only regular
files of bounded size, every limit is a located error, the loader raises only RulesError, and
nothing of a refused file is printed.  (The malformed/ corpus holds the file-shaped cases.)"""
import os
import time

import pytest

from rewrite.lang import loader
from rewrite.lang.diagnostics import MAX_SHOWN, RulesError, error, format_report
from rewrite.lang.loader import MAX_INCLUDE_DEPTH, collect, load
from rewrite.lang.parser import parse_with_diagnostics
from rewrite.lang.printer import format_source
from rewrite.lang.syntax import MAX_NESTING

RULE = "rule {name}\n  match y = aten.add(x, ...)\n  where is_input(x)\n"
SECRET = "SECRET-CONTENT-4242"


def messages(got):
    return [d.message for d in got.diagnostics]


def test_include_outside_the_folder_is_refused_unread(tmp_path, write, cli):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.rules").write_text(f"rule {SECRET}\n  bogus\n")
    main = write("project/main.rules", 'include "../outside/secret.rules"\n')
    (tmp_path / "project" / "link.rules").symlink_to(outside / "secret.rules")
    write("project/via_link.rules", 'include "link.rules"\n')
    code, out = cli("check", main, tmp_path / "project" / "via_link.rules")
    assert code == 2 and out.count("leaves the allowed folders") == 2, out
    assert SECRET not in out and "bogus" not in out
    # a rule root lets it in: read, parsed, and its syntax error shown where it is
    code, out = cli("check", "--root", outside, main)
    assert "leaves the allowed folders" not in out
    assert f"{outside / 'secret.rules'}:1:12: error: unexpected character '-'" in out, out


def test_proc_environ_is_never_read(write, cli, monkeypatch):
    monkeypatch.setenv("REWRITE_TEST_MARKER", SECRET)
    path = write("env.rules", 'include "/proc/self/environ"\ninclude "/proc/self/environ.rules"\n'
                              'include "../../../../../../proc/self/environ"\ninclude "../../etc/passwd"\n')
    code, out = cli("check", path)
    assert code == 2 and "PATH=" not in out and SECRET not in out and "root:" not in out
    assert "4 errors" in out
    with pytest.raises(RulesError) as info:
        load(path)
    assert "PATH=" not in str(info.value) and SECRET not in str(info.value)


def test_devices_fifos_and_big_files_are_refused_before_reading(tmp_path, write, cli, monkeypatch):
    fifo = tmp_path / "fifo.rules"
    os.mkfifo(fifo)
    (tmp_path / "zero.rules").symlink_to("/dev/zero")
    big = write("big.rules", RULE.format(name="big") * 50)
    path = write("main.rules", 'include "fifo.rules"\ninclude "zero.rules"\ninclude "big.rules"\n')
    monkeypatch.setattr(loader, "MAX_FILE_BYTES", 1000)
    start = time.monotonic()
    got = collect(path)
    assert time.monotonic() - start < 30  # a FIFO opened for reading would block for ever
    assert messages(got) == ["cannot read included file 'fifo.rules': not a regular file (a FIFO)",
                             "include of 'zero.rules' leaves the allowed folders",
                             f"cannot read included file 'big.rules': file too large ({big.stat().st_size} bytes; "
                             f"the limit is 1000)"]
    code, out = cli("check", fifo, "/dev/zero")
    assert code == 2 and "cannot read file: not a regular file (a FIFO)" in out
    assert "cannot read file: not a regular file (a device)" in out


def test_a_rule_file_over_the_size_cap_is_refused_at_its_start_unparsed(tmp_path, cli, monkeypatch):
    line = "# " + "x" * 97 + "\n"
    at_cap = tmp_path / "at_cap.rules"
    at_cap.write_text(line * (loader.MAX_FILE_BYTES // len(line)) + "#" * (loader.MAX_FILE_BYTES % len(line)))
    assert at_cap.stat().st_size == loader.MAX_FILE_BYTES == 2 ** 20
    assert cli("check", at_cap)[0] == 0
    over = tmp_path / "over.rules"
    over.write_text(at_cap.read_text() + "\n")

    def no_parsing(*args, **kwargs):
        raise AssertionError("a file over the cap was parsed")

    monkeypatch.setattr(loader, "parse_with_diagnostics", no_parsing)
    size = 2 ** 20 + 1
    hint = "  hint: a rule file may be at most 1 MiB (1048576 bytes); rule files are a few KiB"
    for command in (["check"], ["fmt", "--check"]):
        code, out = cli(*command, over)
        assert code == 2, out
        first, second = out.splitlines()[:2]
        assert first == f"{over}:1:1: error: cannot read{' file' if command == ['check'] else ''}: file too large " \
                        f"({size} bytes; the limit is 1048576)", out
        assert second.startswith(hint) and "xxxx" not in out


def test_include_chain_depth_is_limited(tmp_path, cli):
    n = 1000
    for i in range(n):
        (tmp_path / f"f{i}.rules").write_text(f'include "f{i + 1}.rules"\n' if i + 1 < n else RULE.format(name="end"))
    got = collect(tmp_path / "f0.rules")
    assert messages(got) == [f"includes nested too deep: more than {MAX_INCLUDE_DEPTH} files"]
    assert got.diagnostics[0].span.file == str(tmp_path / f"f{MAX_INCLUDE_DEPTH - 1}.rules")
    with pytest.raises(RulesError):
        load(tmp_path / "f0.rules")


@pytest.mark.parametrize("paths", [[123], ["a\0b.rules"], [b"/nonexistent"], ["/dev/null/x"], ["/proc/self/mem"]])
def test_the_loader_raises_only_rules_error(paths):
    with pytest.raises(RulesError):
        load(paths)


@pytest.mark.parametrize("snippet", [
    "aten.add(" * 2000 + "x" + ")" * 2000,        # patterns
    "[" * 3000 + "]" * 3000,
    "a: " * 3000 + "x",
])
def test_deep_patterns_are_a_located_error(snippet):
    _, diags = parse_with_diagnostics(f"rule r\n  match y = aten.add({snippet})\n", "d.rules")
    assert [d.message for d in diags] == [f"nesting too deep: more than {MAX_NESTING} levels"]
    assert diags[0].span.line == 2


@pytest.mark.parametrize("snippet", ["f(" * 2000 + "x" + ")" * 2000, "not " * 3000 + "x", "x" + ".a" * 3000,
                                     "x" + "[0]" * 3000, "[" * 3000 + "]" * 3000])
def test_deep_expressions_are_a_located_error(snippet):
    _, diags = parse_with_diagnostics(f"rule r\n  match y = aten.add(x)\n  where {snippet}\n", "d.rules")
    assert [d.message for d in diags] == [f"nesting too deep: more than {MAX_NESTING} levels"]
    assert diags[0].span.line == 3


def test_parentheses_do_not_nest_and_deep_ones_still_parse():
    module, diags = parse_with_diagnostics("rule r\n  match y = aten.add(x)\n  where " + "(" * 5000 + "is_input(x)"
                                           + ")" * 5000 + "\n", "p.rules")
    assert diags == [] and module.items[0].where.name == "is_input"
    assert format_source(format_source("rule r\n  match y = aten.add(x)\n  where ((((is_input(x))))) and (x == 1)\n")) \
        == "rule r\n  match      y = aten.add(x)\n  where      is_input(x) and x == 1\n"


def test_nesting_at_the_limit_is_fine():
    text = "rule r\n  match y = aten.add(x)\n  where " + "not " * (MAX_NESTING - 1) + "x.a\n"
    assert parse_with_diagnostics(text)[1] == []
    text = text.replace("not " * (MAX_NESTING - 1), "not " * MAX_NESTING)
    assert [d.message for d in parse_with_diagnostics(text)[1]] == [f"nesting too deep: more than {MAX_NESTING} levels"]


def test_numbers_out_of_range_through_fmt(write, cli):
    path = write("n.rules", "rule r\n  match y = aten.add(x, 1e309)\n  priority 99999999999999999999\n")
    code, out = cli("fmt", path)
    assert code == 2, out
    assert f"{path}:2:25: error: float literal out of range: 1e309" in out
    assert f"{path}:3:12: error: integer literal out of range: 99999999999999999999" in out


def test_byte_order_mark_is_accepted_and_kept_by_fmt(tmp_path, cli):
    path = tmp_path / "bom.rules"
    path.write_bytes(b"\xef\xbb\xbf" + RULE.format(name="r").encode())
    code, out = cli("check", path)
    assert code == 0, out
    assert cli("fmt", path)[0] == 0
    once = path.read_bytes()
    assert once.startswith(b"\xef\xbb\xbfrule r\n") and cli("fmt", "--check", path) == (0, "")


def test_line_breaks_other_than_newline_keep_the_caret_on_its_line(write, cli):
    for sep in ("\f", "\v", "\x1c", "\x85", "\u2028", "\u2029", "\r"):
        path = write("sep.rules", f"# comment{sep}more\nrule r\n  match y = aten.ad(x)\n")
        code, out = cli("check", path)
        assert f"{path}:3:13: error: unknown op 'aten.ad'" in out, (repr(sep), out)
        assert "  match y = aten.ad(x)\n            ^~~~~~~" in out, (repr(sep), out)


def test_control_characters_are_not_printed_raw(write, cli):
    path = write("esc.rules", "rule r\n  match y = aten.add(x) \x1b[31mred\x1b[0m\n")
    code, out = cli("check", path)
    assert code == 2 and "\x1b" not in out


def test_report_shows_at_most_max_shown_diagnostics():
    diags = [error(f"problem {i}", None, path="f.rules") for i in range(MAX_SHOWN + 50)]
    text = format_report(diags, {})
    assert text.count("error: problem") == MAX_SHOWN
    assert text.endswith("... and 50 more errors not shown (at most 200 are shown)")


def test_check_counts_every_error_but_prints_a_bounded_report(write, cli):
    path = write("many.rules", "".join(f"opset o{i} = aten.nope_{i}\n" for i in range(MAX_SHOWN + 100)))
    code, out = cli("check", path)
    assert code == 2 and f"{MAX_SHOWN + 100} errors" in out
    assert out.count(": error: ") == MAX_SHOWN and "... and 100 more errors not shown" in out


def test_suggestions_are_bounded(write):
    path = write("typos.rules", "".join(f"opset o{i} = aten.slice_scater\n" for i in range(MAX_SHOWN + 30)))
    hints = [d.hint for d in collect(path).diagnostics]
    assert len(hints) == MAX_SHOWN + 30
    assert hints[0] == "did you mean 'aten.slice_scatter'?"  # cached: one suggestion for one name
    assert all(h == hints[0] for h in hints)
