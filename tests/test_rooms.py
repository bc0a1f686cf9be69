"""The package's rooms stay legible (issue 24): no module over 700 lines, no folder of more than
12 modules, and the analysis rooms layered: ``facts/`` imports no other room, ``semantics/`` only
``facts/``, ``inductor/`` only those two; the top modules of ``analysis/`` may use all three."""
from __future__ import annotations

from pathlib import Path

import pytest

from test_import_cycles import PACKAGE, imports, modules

MAX_LINES = 700
MAX_MODULES = 12
ROOMS = ("facts", "semantics", "inductor")        # each may import only the rooms before it


def test_no_module_over_700_lines():
    long = {str(p.relative_to(PACKAGE.parent)): n for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > MAX_LINES}
    assert not long, f"modules over {MAX_LINES} lines: {long}"


def test_no_folder_of_more_than_12_modules():
    crowded = {str(d.relative_to(PACKAGE.parent)): n for d in [PACKAGE, *PACKAGE.rglob("*")]
               if d.is_dir() and (n := len(list(d.glob("*.py")))) > MAX_MODULES}
    assert not crowded, f"folders of more than {MAX_MODULES} modules: {crowded}"


def room_of(module: str):
    parts = module.split(".")
    return parts[2] if len(parts) > 3 and parts[1] == "analysis" and parts[2] in ROOMS else None


@pytest.mark.parametrize("room", ROOMS)
def test_analysis_rooms_import_only_the_rooms_before_them(room):
    known = modules(PACKAGE)
    allowed = set(ROOMS[:ROOMS.index(room) + 1])
    wrong = []
    for name, path in known.items():
        if room_of(name) != room:
            continue
        for target, line in imports(name, path, known):
            if target.startswith("rewrite.analysis") and (room_of(target) not in allowed):
                wrong.append(f"{path.relative_to(PACKAGE.parent)}:{line} imports {target}")
    assert not wrong, f"analysis/{room} may import only {sorted(allowed)}:\n" + "\n".join(wrong)
