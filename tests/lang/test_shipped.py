from rewrite.lang.loader import shipped_rules_dir


def test_shipped_rules_check_clean(cli):
    code, output = cli("check", shipped_rules_dir())
    assert code == 0, output
    assert "0 errors, 0 warnings" in output
    assert f"checked {len(list(shipped_rules_dir().glob('*.rules')))} files" in output


def test_shipped_rules_are_formatted(cli):
    code, output = cli("fmt", "--check", shipped_rules_dir())
    assert code == 0, output
