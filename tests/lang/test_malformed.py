"""Every file in malformed/ must fail `rewrite check` with the error its header announces."""
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
MALFORMED = Path(__file__).parent / "malformed"
CASES = sorted(MALFORMED.glob("*.rules"))


def expectation(path: Path):
    head = {}
    for line in path.read_text().splitlines():
        m = re.match(r"# (expect|hint|file): (.*)", line)
        if not m:
            break
        head[m.group(1)] = m.group(2)
    line, col, message = re.match(r"(\d+):(\d+): (.*)", head["expect"]).groups()
    target = os.path.normpath(path.parent / head["file"]) if "file" in head else str(path)
    return target, int(line), int(col), message, head.get("hint")


def assert_reported(output: str, path: Path):
    target, line, col, message, hint = expectation(path)
    prefix = f"{target}:{line}:{col}: error: "
    assert "Traceback" not in output
    lines = output.splitlines()
    at = [i for i, text in enumerate(lines) if text.startswith(prefix) and message in text]
    assert at, f"no '{prefix}...{message}' in:\n{output}"
    i = at[0]
    source_line = Path(target).read_text().splitlines()[line - 1]
    assert lines[i + 1] == source_line
    assert lines[i + 2].rstrip("~") == " " * (col - 1) + "^"
    if hint is not None:
        assert lines[i + 3].startswith("  hint: ") and hint in lines[i + 3], output


def test_corpus_is_large_enough():
    assert len(CASES) >= 45


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_malformed(path, cli):
    code, output = cli("check", path)
    assert code == 2, output
    assert_reported(output, path)


@pytest.mark.parametrize("name", ["unknown_op_near_miss", "syntax_section_order", "include_cycle"])
def test_malformed_subprocess(name):
    path = MALFORMED / f"{name}.rules"
    proc = subprocess.run([sys.executable, "-m", "rewrite", "check", str(path)], capture_output=True,
                          text=True, cwd=REPO, timeout=120)
    assert proc.returncode == 2
    assert_reported(proc.stderr, path)
    assert "1 error" in proc.stdout
