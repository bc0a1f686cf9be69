"""The worked example of docs/engine.md ("Extending") runs as written: its rule file and its
Python block are taken from the page, so the page cannot drift from what works."""
import contextlib
import io
import re
from pathlib import Path

import torch

from rewrite import vocab

DOC = Path(__file__).resolve().parents[2] / "docs" / "engine.md"
MARK = "<!-- example: user predicate -->"


def example_blocks():
    text = DOC.read_text()
    assert MARK in text, "the worked example is gone from docs/engine.md"
    blocks = re.findall(r"```(\w*)\n(.*?)```", text.split(MARK, 1)[1], flags=re.S)
    rules = next(body for lang, body in blocks if lang == "")
    python = next(body for lang, body in blocks if lang == "python")
    return rules, python


def test_the_worked_example_runs_and_fires_only_on_the_big_buffer(tmp_path, monkeypatch):
    rules, python = example_blocks()
    (tmp_path / "big_scatter.rules").write_text(rules)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(vocab, "_USER", vocab.BUILTINS.child())    # the example registers a predicate
    torch._dynamo.reset()
    out = io.StringIO()
    namespace = {}
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(python, str(DOC), "exec"), namespace)
    finally:
        torch._dynamo.reset()
    lines = out.getvalue().splitlines()
    assert lines == ["100 []", "10000 ['reinplace_big_intermediate']"], lines
    be = namespace["be"]
    (big,) = [r for r in be.reports if r.fired_rules()]
    assert "aten.slice_scatter.default" in big.ops_before and "aten.slice_scatter.default" not in big.ops_after
    assert any(c.rule == "reinplace_big_intermediate" and c.stopped_at == "profitable"
               for r in be.reports if not r.fired_rules() for c in r.candidates)
