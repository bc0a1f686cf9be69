import contextlib
import io
import pytest

from rewrite.cli import main

def run_cli(*argv):
    """``rewrite ARGV`` in-process: (exit code, stdout + stderr)."""
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(buf):
        code = main([str(a) for a in argv])
    return code, buf.getvalue()


@pytest.fixture
def cli():
    return run_cli


@pytest.fixture
def write(tmp_path):
    def _write(name, text):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    return _write
