"""Compiling a correct program prints nothing from rewrite.  A refusal by the legality check, a
candidate that stops at a guard, Inductor's reinplacing kept safe by the engine's net: that is
the check doing its job, logged at debug (``REWRITE_LOG=trace``).  Warnings are for what the
user has something to do about (a user rule refused or failing, a dependency that fell back, a
config that turns a stage off).

Every zoo program (``benchmarks/zoo_programs.py``, transformers' model code) is compiled on the
eager base, which runs the same AOTAutograd and Inductor passes as the inductor base without
generating code, and called twice (a recompile included), with nothing configured for logging
(so a record reaching Python's last-resort handler would print to stderr).  Captured: Python
warnings issued from rewrite's modules, records of the ``rewrite`` loggers at WARNING or above,
and what rewrite writes to stderr."""
import logging
import sys
import warnings
from pathlib import Path

import pytest
import torch

from rewrite.backend import make_backend
from rewrite.engine import compiler

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "rewrite"


class _Records(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records = []

    def emit(self, record):
        self.records.append(record)


def _zoo():
    pytest.importorskip("transformers")
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import zoo_programs
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    return zoo_programs.zoo()


@pytest.mark.parametrize("name", ["decode static cache", "prefill static cache", "decode sliding window",
                                  "llama train step", "resnet train step", "adamw foreach step"])
def test_zoo_program_compiles_quietly(name, capfd):
    program = _zoo()[name]
    records = _Records()
    logger = logging.getLogger("rewrite")
    logger.addHandler(records)
    torch._dynamo.reset()
    backend = make_backend(base="eager", cache=False)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            instance = program.build(lambda fn: torch.compile(fn, backend=backend))
            for i in range(2):
                instance.call(i)
    finally:
        logger.removeHandler(records)
        torch._dynamo.reset()
    ours = [f"{w.filename}:{w.lineno}: {w.message}" for w in caught
            if Path(w.filename).resolve().is_relative_to(PACKAGE)]
    logged = [f"{r.name} {r.levelname}: {r.getMessage()}" for r in records.records]
    err = capfd.readouterr().err
    said = [line for line in err.splitlines() if _from_rewrite(line)]
    assert backend.reports, "the rules did not run"
    assert not (ours or logged or said), "\n".join(ours + logged + said)


REFUSED_RULE = """
rule into_input
  match   y = aten.add.Tensor(x: input, other)
  rewrite reinplace(y)
"""


@pytest.mark.parametrize("shipped", [True, False])
def test_a_refusal_by_the_legality_check_warns_only_for_a_user_rule(shipped, tmp_path, monkeypatch, caplog):
    """The same rule, refused by the legality check on a correct program (it writes an input the
    program never mutates): from the shipped rule files it is the check doing its job (debug);
    from the user's it is the user's to look at (a warning, and a line in the report's
    warnings)."""
    rules = tmp_path / "mine.rules"
    rules.write_text(REFUSED_RULE)
    if shipped:
        monkeypatch.setattr(compiler, "shipped_rules_dir", lambda: tmp_path)
    torch._dynamo.reset()
    backend = make_backend(rules=[rules], base="eager", cache=False)
    with caplog.at_level(logging.DEBUG, logger="rewrite"), torch.inference_mode():
        torch.compile(lambda x, d: x + d, backend=backend, fullgraph=True)(torch.arange(6.0), torch.ones(6))
    (refused,) = [c for r in backend.reports for c in r.candidates]
    assert refused.stopped_at == "legality"
    said = [(r.levelno, r.getMessage()) for r in caplog.records
            if r.name == "rewrite" and "refused by the legality check" in r.getMessage()]
    assert [level for level, _ in said] == [logging.DEBUG if shipped else logging.WARNING]
    assert any(refused.line() in w for r in backend.reports for w in r.warnings) != shipped


def _from_rewrite(line: str) -> bool:
    """A stderr line rewrite wrote: its log handler's ``rewrite: ...`` lines, Python's last-resort
    handler's bare messages of rewrite's records (they name a rule file or a graph), a traceback
    or warning line in rewrite's sources."""
    return (line.startswith("rewrite") or ".rules:" in line or str(PACKAGE) in line
            or line.startswith(("[inference]", "[forward]", "[backward]", "[dynamo]", "[joint]")))
