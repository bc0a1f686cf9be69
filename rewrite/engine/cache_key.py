"""What Inductor's FX graph cache key must cover for the graphs a rule set rewrote: the rule
sources, the engine (the package's own Python source), and every user-registered predicate,
function and action the rules call (its version, else its code).  A changed rule, engine or
predicate must never let Inductor serve a graph the old one rewrote."""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from rewrite.lang import ast

ENGINE_VERSION = "2"


@functools.lru_cache(maxsize=1)
def _engine_source_digest() -> str:
    """sha256 of the package's Python sources: the built-in vocabulary, analyses and actions."""
    h = hashlib.sha256()
    package = Path(__file__).resolve().parents[1]
    for path in sorted(package.rglob("*.py")):
        h.update(str(path.relative_to(package)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def cache_key(loaded, registry) -> str:
    """What Inductor's FX graph cache key must cover for graphs these rules rewrote: the rule
    sources, the engine (its source), and every user-registered predicate, function and action
    the rules call (its version, else its code)."""
    h = hashlib.sha256()
    h.update((getattr(loaded, "digest", "") + ENGINE_VERSION).encode())
    h.update(_engine_source_digest().encode())
    for name in sorted(_called_names(loaded)):
        entry = registry.get(name)
        if entry is not None and not entry.builtin:
            h.update(entry.fingerprint().encode())
    return h.hexdigest()


def _called_names(loaded) -> set:
    names = set()

    def visit(x):
        if isinstance(x, ast.Call):
            names.add(x.name)
        if hasattr(x, "__dataclass_fields__"):
            for f in x.__dataclass_fields__:
                visit(getattr(x, f))
        elif isinstance(x, (list, tuple)):
            for v in x:
                visit(v)

    for item in list(getattr(loaded, "rules", [])) + list(getattr(loaded, "dependencies", [])):
        visit(item)
    return names
