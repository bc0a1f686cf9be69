"""Every file in malformed/ must fail `rewrite check` with the error its header announces.

Header lines: ``# expect: LINE:COL: MESSAGE`` (required), ``# hint: TEXT``, ``# file: PATH`` (the
error is in that file, relative to the case), ``# source: none`` (the file's content must not be
shown: it was refused before it was parsed), ``# link: PATH -> TARGET`` (the case needs a symbolic
link at PATH, relative to the case, to TARGET: the case is checked from a copy in a temporary
folder that has the link, so the checkout holds no link to a device or FIFO that would hang a
``grep -r`` or an editor).  Lines are counted by ``\n`` alone, as the lexer does; a byte order mark
before the header is allowed."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from rewrite.lang.diagnostics import shown_line

REPO = Path(__file__).resolve().parents[2]
MALFORMED = Path(__file__).parent / "malformed"
CASES = sorted(MALFORMED.glob("*.rules"))


def file_lines(path) -> list:
    return Path(path).read_bytes().decode("utf-8", errors="replace").lstrip("\ufeff").split("\n")


def header(path: Path) -> dict:
    head = {}
    for line in file_lines(path):
        m = re.match(r"# (expect|hint|file|source|link): (.*)", line)
        if not m:
            break
        head[m.group(1)] = m.group(2).rstrip("\r")
    return head


def staged(path: Path, folder: Path) -> Path:
    """The case to check: ``path`` itself, or, for a case that needs a link, a copy of it in
    ``folder`` beside the link."""
    link = header(path).get("link")
    if link is None:
        return path
    name, target = (part.strip() for part in link.split("->"))
    copy = folder / path.name
    shutil.copyfile(path, copy)
    (folder / name).parent.mkdir(parents=True, exist_ok=True)
    (folder / name).symlink_to(target)
    return copy


def expectation(path: Path):
    head = header(path)
    line, col, message = re.match(r"(\d+):(\d+): (.*)", head["expect"]).groups()
    target = os.path.normpath(path.parent / head["file"]) if "file" in head else str(path)
    return target, int(line), int(col), message, head.get("hint"), head.get("source") != "none"


def assert_reported(output: str, path: Path):
    target, line, col, message, hint, shows_source = expectation(path)
    prefix = f"{target}:{line}:{col}: error: "
    assert "Traceback" not in output
    lines = output.split("\n")
    at = [i for i, text in enumerate(lines) if text.startswith(prefix) and message in text]
    assert at, f"no '{prefix}...{message}' in:\n{output}"
    i = at[0]
    if not shows_source:
        assert lines[i + 1].startswith(("  hint: ", "checked ")) or re.match(r"\S+:\d+", lines[i + 1]), output
        return
    source_line = file_lines(target)[line - 1].rstrip("\r")
    shown, caret_col = shown_line(source_line, col)
    assert lines[i + 1] == shown
    assert lines[i + 2].rstrip("~") == " " * (caret_col - 1) + "^"
    if hint is not None:
        assert lines[i + 3].startswith("  hint: ") and hint in lines[i + 3], output


def test_corpus_is_large_enough():
    assert len(CASES) >= 70


def test_no_case_is_a_special_file():
    assert all(p.is_file() and not p.is_symlink() for p in MALFORMED.rglob("*")
               if not p.is_dir()), "make special files in the test (a '# link:' header), not in the checkout"


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_malformed(path, cli, tmp_path):
    path = staged(path, tmp_path)
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
