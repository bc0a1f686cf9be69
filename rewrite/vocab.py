"""The predicate, function and action vocabulary that rule files may call.

Rule files never contain Python.  Every name a rule calls must be registered here, from Python,
with its kind and arity; the checker validates calls against this registry and the engine
dispatches through it.  Built-ins live in :mod:`rewrite.engine.builtins`; users add their own
with :func:`register_predicate`, :func:`register_function` and :func:`register_action`.

Kinds:
  * ``predicate``: returns a bool; usable in ``where``, ``profitable``, ``safe``, path ``when``
    and ``mutates ... when`` clauses.
  * ``function``: returns a value (a node, a number); usable anywhere an expression is.
  * ``action``: changes the graph; usable only in ``rewrite`` sections and ``via`` clauses.
"""
from __future__ import annotations

import difflib
import inspect
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, List, Optional

KINDS = ("predicate", "function", "action")


@dataclass(frozen=True)
class Entry:
    name: str
    kind: str
    arity: int
    doc: str
    impl: Callable
    builtin: bool = False

    @property
    def summary(self) -> str:
        return (self.doc or "").strip().splitlines()[0] if self.doc else ""


class VocabularyError(ValueError):
    pass


class Registry:
    """Name -> :class:`Entry`.  A registry can be layered over a parent (user additions over the
    built-ins) so that tests can add names without touching global state."""

    def __init__(self, parent: Optional["Registry"] = None):
        self._entries: Dict[str, Entry] = {}
        self._parent = parent

    def register(self, name: str, kind: str, impl: Callable, arity: Optional[int] = None,
                 doc: Optional[str] = None, builtin: bool = False, replace: bool = False) -> Entry:
        if kind not in KINDS:
            raise VocabularyError(f"kind must be one of {KINDS}, not {kind!r}")
        if not name.isidentifier():
            raise VocabularyError(f"{name!r} is not a valid name")
        if arity is None:
            arity = _arity_of(impl)
        if not replace and self.get(name) is not None:
            raise VocabularyError(f"{name!r} is already registered")
        entry = Entry(name, kind, arity, inspect.cleandoc(doc or impl.__doc__ or ""), impl, builtin)
        self._entries[name] = entry
        return entry

    def get(self, name: str) -> Optional[Entry]:
        if name in self._entries:
            return self._entries[name]
        return self._parent.get(name) if self._parent is not None else None

    def entries(self) -> List[Entry]:
        merged: Dict[str, Entry] = {}
        if self._parent is not None:
            merged.update({e.name: e for e in self._parent.entries()})
        merged.update(self._entries)
        return sorted(merged.values(), key=lambda e: (KINDS.index(e.kind), e.name))

    def names(self, kinds: Iterable[str] = KINDS) -> List[str]:
        kinds = tuple(kinds)
        return [e.name for e in self.entries() if e.kind in kinds]

    def suggest(self, name: str, kinds: Iterable[str] = KINDS) -> Optional[str]:
        close = difflib.get_close_matches(name, self.names(kinds), n=1, cutoff=0.6)
        return close[0] if close else None

    def child(self) -> "Registry":
        return Registry(parent=self)


def _arity_of(impl: Callable) -> int:
    """Arity as seen from a rule: the implementation's positional parameters minus the leading
    ``ctx`` every implementation receives."""
    params = [p for p in inspect.signature(impl).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]
    return max(0, len(params) - 1)


BUILTINS = Registry()
_USER = BUILTINS.child()


def default_registry() -> Registry:
    """Built-ins plus everything registered through the public API."""
    import rewrite.engine.builtins  # noqa: F401  (registers the built-ins on first use)

    return _USER


def builtin(kind: str, name: Optional[str] = None, arity: Optional[int] = None):
    """Decorator used by :mod:`rewrite.engine.builtins`."""

    def deco(fn: Callable) -> Callable:
        BUILTINS.register(name or fn.__name__.rstrip("_"), kind, fn, arity=arity, builtin=True)
        return fn

    return deco


def register_predicate(name: str, fn: Callable, arity: Optional[int] = None, doc: Optional[str] = None,
                       registry: Optional[Registry] = None) -> Entry:
    """Register ``fn(ctx, *args) -> bool`` as a predicate callable from rule files."""
    return (registry or _USER).register(name, "predicate", fn, arity, doc)


def register_function(name: str, fn: Callable, arity: Optional[int] = None, doc: Optional[str] = None,
                      registry: Optional[Registry] = None) -> Entry:
    """Register ``fn(ctx, *args) -> value`` as a function callable from rule files."""
    return (registry or _USER).register(name, "function", fn, arity, doc)


def register_action(name: str, fn: Callable, arity: Optional[int] = None, doc: Optional[str] = None,
                    registry: Optional[Registry] = None) -> Entry:
    """Register ``fn(ctx, *args)`` as a graph action usable in ``rewrite`` and ``via``."""
    return (registry or _USER).register(name, "action", fn, arity, doc)
