from rewrite import cli as cli_module
from rewrite.lang import docgen


def test_commands_are_discovered_from_modules():
    parser = cli_module.build_parser()
    assert {"check", "fmt"} <= set(parser._subparsers._group_actions[0].choices)


def test_usage_errors_exit_2(cli):
    assert cli()[0] == 2
    assert cli("check")[0] == 2


def test_missing_path_is_an_error_without_traceback(cli, tmp_path):
    code, out = cli("check", tmp_path / "nope.rules")
    assert code == 2 and "no such file or folder" in out and "Traceback" not in out


def test_non_utf8_file_is_an_error(cli, tmp_path):
    path = tmp_path / "bin.rules"
    path.write_bytes(b"rule \xff\xfe\n")
    code, out = cli("check", path)
    assert code == 2 and "not valid UTF-8" in out


def test_language_reference_vocabulary_is_in_sync():
    assert docgen.main(["--check"]) == 0, "run: python -m rewrite.lang.docgen"
