"""No import cycle inside the ``rewrite`` package.

Every module under ``rewrite/`` is parsed with :mod:`ast`, and every import of a ``rewrite``
module is an edge, wherever it is written: at module level, inside a function (a "lazy" import
still means the two modules need each other), under ``if TYPE_CHECKING``, or as
``importlib.import_module("rewrite....")`` with a constant name.  ``from rewrite.a import b``
points at ``rewrite.a.b`` when that is a module, else at ``rewrite.a``.  Importing a submodule
also runs its package's ``__init__``; that implicit edge is not counted (every package would
otherwise form a cycle with any submodule its ``__init__`` re-exports).  Any strongly connected
component of more than one module fails the test, with one cycle through it and where each of
its imports is written.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, List, Set, Tuple

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "rewrite"


def module_name(path: Path, package: Path) -> str:
    parts = path.relative_to(package.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules(package: Path) -> Dict[str, Path]:
    return {module_name(p, package): p for p in sorted(package.rglob("*.py"))}


def _resolve(name: str, known: Dict[str, Path]) -> str:
    """The module ``name`` refers to: itself, or its longest prefix that is a module."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name


def imports(name: str, path: Path, known: Dict[str, Path]) -> List[Tuple[str, int]]:
    """(imported rewrite module, line) for every import written in ``path``."""
    is_package = path.name == "__init__.py"
    here = name if is_package else name.rpartition(".")[0]
    found: List[Tuple[str, int]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        targets: List[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join(base + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base for alias in node.names]
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            targets = [node.args[0].value]
        for target in targets:
            if target == "rewrite" or target.startswith("rewrite."):
                resolved = _resolve(target, known)
                if resolved and resolved != name:
                    found.append((resolved, node.lineno))
    return found


def import_graph(package: Path = PACKAGE) -> Tuple[nx.DiGraph, Dict[Tuple[str, str], str]]:
    """Modules and their imports of each other; ``where``: the file and lines of each edge."""
    known = modules(package)
    graph, lines = nx.DiGraph(), {}
    graph.add_nodes_from(known)
    for name, path in known.items():
        for target, line in imports(name, path, known):
            graph.add_edge(name, target)
            written = lines.setdefault((name, target), [])
            if line not in written:
                written.append(line)
    where = {(a, b): f"{known[a].relative_to(package.parent)} line {', '.join(map(str, sorted(n)))}"
             for (a, b), n in lines.items()}
    return graph, where


def cycles(package: Path = PACKAGE) -> List[str]:
    """One cycle through each strongly connected component of more than one module, described."""
    graph, where = import_graph(package)
    out = []
    for component in nx.strongly_connected_components(graph):
        if len(component) > 1:
            cycle = nx.find_cycle(graph.subgraph(component))
            out.append("\n".join(f"  {a} imports {b} ({where[(a, b)]})" for a, b in cycle))
    return sorted(out)


def test_every_kind_of_import_is_an_edge(tmp_path):
    """Module level, inside a function, relative, ``import_module`` with a constant name."""
    known = {"rewrite": Path(), "rewrite.a": Path(), "rewrite.a.b": Path(), "rewrite.a.c": Path(),
             "rewrite.d": Path(), "rewrite.e": Path()}
    source = tmp_path / "c.py"
    source.write_text("import os\n"
                      "from rewrite.a import b\n"
                      "def f():\n    from rewrite import d\n"
                      "def g():\n    import importlib\n    return importlib.import_module('rewrite.e')\n"
                      "from . import b as again\n"
                      "from .b import something\n"
                      "from rewrite.a.b import name_in_b\n")
    found = imports("rewrite.a.c", source, known)
    assert sorted(found, key=lambda edge: edge[1]) == [("rewrite.a.b", 2), ("rewrite.d", 4), ("rewrite.e", 7),
                                                       ("rewrite.a.b", 8), ("rewrite.a.b", 9), ("rewrite.a.b", 10)]


def test_a_cycle_through_a_function_level_import_is_found(tmp_path):
    package = tmp_path / "rewrite"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("from rewrite.sub.low import X\n")
    (package / "sub" / "low.py").write_text("X = 1\ndef f():\n    from rewrite import top\n")
    (package / "top.py").write_text("import rewrite.sub.low\n")
    (found,) = cycles(package)
    assert "rewrite.sub.low imports rewrite.top (rewrite/sub/low.py line 3)" in found
    assert "rewrite.top imports rewrite.sub.low (rewrite/top.py line 1)" in found


def test_no_import_cycle_in_rewrite():
    found = cycles()
    assert not found, "import cycles in rewrite/:\n" + "\n\n".join(found)
