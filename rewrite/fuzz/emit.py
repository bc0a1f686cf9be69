"""A failing program written out as a corpus case (the format of docs/corpus.md): the same
``fn`` and ``inputs``, ``EXPECT = matches_eager`` (exact unless the program does inexact float
math), ``inductor`` when the failure was seen through Inductor, ``CALLS = 3``, and a docstring
saying how it was found."""
from __future__ import annotations

import textwrap
from pathlib import Path
from typing import List, Optional

from rewrite.fuzz.classify import BASE_BACKENDS
from rewrite.fuzz.oracle import FLOAT_TOLERANCE, Verdict
from rewrite.fuzz.program import Program
from rewrite.fuzz.reference import CALLS

WIDTH = 96


def case_name(program: Program) -> str:
    return f"fuzz_s{program.seed}_p{program.index}"


def _doc_safe(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', '\\"\\"\\"')


def docstring(program: Program, verdict: Verdict, base: str, command: str,
              original_size: Optional[int] = None) -> str:
    cls = verdict.classes.get(base, verdict.cls)
    head = f"Found by `{command}` (program {program.index})"
    if original_size is not None and original_size != program.size:
        head += f", minimized from {original_size} to {program.size} statements"
    head += f": {cls} on base {base}."
    lines = textwrap.wrap(head, WIDTH)
    lines.append("")
    for name in BASE_BACKENDS[base]:
        outcome = verdict.outcomes.get(name)
        if outcome is not None:
            lines += textwrap.wrap(f"{name}: {outcome.describe()}", WIDTH, subsequent_indent="    ")
    fired = sorted({r for n in BASE_BACKENDS[base] if n in verdict.outcomes for r in verdict.outcomes[n].fired()})
    if fired:
        lines.append(f"Rules fired: {', '.join(fired)}.")
    return "\n".join(_doc_safe(line) for line in lines)


def expect_block(program: Program, base: str) -> List[str]:
    match = "matches_eager exact" if program.exact else \
        f"matches_eager atol={FLOAT_TOLERANCE:g} rtol={FLOAT_TOLERANCE:g}"
    return [match] + (["inductor"] if base == "inductor" else [])


def case_text(program: Program, verdict: Verdict, base: str, command: str,
              original_size: Optional[int] = None) -> str:
    parts = [f'"""{docstring(program, verdict, base, command, original_size)}\n"""', "import torch", "",
             'EXPECT = """', *expect_block(program, base), '"""',
             f'MODE = "{program.mode}"', f"CALLS = {CALLS}", f"DYNAMIC = {program.dynamic}", "", "",
             *program.fn_lines(), "", "", *program.inputs_lines()]
    return "\n".join(parts) + "\n"


def write_case(directory, program: Program, verdict: Verdict, base: str, command: str,
               original_size: Optional[int] = None) -> Path:
    path = Path(directory) / f"{case_name(program)}.py"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(case_text(program, verdict, base, command, original_size))
    return path
