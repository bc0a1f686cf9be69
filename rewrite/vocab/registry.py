"""How a name rule files may use is declared and looked up: the kinds of values, an
:class:`Entry` per predicate, function and action, node attributes, fact tables, and the
:class:`Registry` that holds them.

Rule files never contain Python.  Every name a rule calls is an :class:`Entry` declaring the
*kinds* of its parameters and result (``Node``, ``Path``, ``List``, ``Const``...), the fact tables
it needs, the stages it may be used in, and its documentation (the docstring).  The checker
checks every call against that declaration, the engine dispatches through it, ``docs/language.md``
is generated from it.  The built-ins are declared in :mod:`rewrite.vocab.builtins` with the
decorators at the end of this module (:func:`predicate`, :func:`function`, :func:`action`,
:func:`attribute`, :func:`fact_table`); user code registers through :mod:`rewrite.vocab`.

This module does not import torch: ``rewrite check`` reads declarations without it.
"""
from __future__ import annotations

import difflib
import hashlib
import inspect
from dataclasses import dataclass
from typing import Callable, Dict, Iterable, Optional, Sequence, Tuple

ENTRY_KINDS = ("predicate", "function", "action")


# --------------------------------------------------------------------------- kinds


@dataclass(frozen=True)
class Kind:
    """What a value in a rule is, as far as the checker can tell."""

    name: str
    doc: str

    def __str__(self) -> str:
        return self.name


Node = Kind("node", "a graph node")
OptNode = Kind("node?", "a graph node, or None")
Path = Kind("path", "a path bound by a `path` section")
List = Kind("list", "a list (op arguments such as indices, the operands of a higher-order op)")
Const = Kind("const", "a constant: number, string, bool or None")
Number = Kind("number", "a number, or a symbolic size expression")
Bool = Kind("bool", "true or false")
Op = Kind("op", "an op name")
Any = Kind("any", "any value")
Nothing = Kind("nothing", "no value (actions)")

KINDS: Tuple[Kind, ...] = (Node, OptNode, Path, List, Const, Number, Bool, Op, Any, Nothing)


def accepts(param: Kind, arg: Kind) -> bool:
    """Whether a value of kind ``arg`` may be passed where ``param`` is declared.  A ``node?``
    is accepted for a ``node`` (a section before the call usually rules None out); a None that
    reaches such a parameter at run time stops the rule with an error, never counts as false."""
    if param is Any or arg is Any or param is arg:
        return True
    if param is Node:
        return arg is OptNode
    if param is OptNode:
        return arg in (Node, OptNode, Const)
    if param is Number:
        return arg is Const
    if param is Const:
        return arg in (Number, Bool, Op)
    if param is Bool:
        return arg is Const
    return False


# --------------------------------------------------------------------------- entries


@dataclass(frozen=True)
class Param:
    name: str
    kind: Kind


@dataclass(frozen=True)
class Entry:
    name: str
    kind: str                        # predicate | function | action
    params: Tuple[Param, ...]
    result: Kind
    doc: str
    impl: Callable
    needs: Tuple[str, ...] = ()      # fact tables the rule set must load
    stages: Optional[Tuple[str, ...]] = None    # where it may be used (None: everywhere)
    builtin: bool = False
    version: Optional[str] = None    # given by a registrant; else the code is hashed (cache key)

    @property
    def arity(self) -> int:
        return len(self.params)

    @property
    def summary(self) -> str:
        return (self.doc or "").strip().splitlines()[0] if self.doc else ""

    def signature(self) -> str:
        params = ", ".join(f"{p.name}: {p.kind}" for p in self.params)
        tail = "" if self.kind == "action" else f" -> {self.result}"
        return f"{self.name}({params}){tail}"

    def fingerprint(self) -> str:
        """What the FX graph cache key covers of this entry: its version, else its code."""
        if self.version is not None:
            return f"{self.name}={self.version}"
        return f"{self.name}:{hashlib.sha256(_code_identity(self.impl).encode()).hexdigest()}"


def _code_identity(impl) -> str:
    """The source of ``impl`` where it can be read, and its code object's bytecode, constants
    and names: the source read from a file can be another version than the code that runs (the
    file edited since, a function compiled from text under a borrowed file name), and some
    functions have none."""
    parts = []
    try:
        parts.append(inspect.getsource(impl))
    except Exception:  # noqa: BLE001 - OSError, TypeError, tokenize errors of a borrowed file name
        pass
    code = getattr(impl, "__code__", None)
    if code is not None:
        parts.append(_code_digest(code))
    return "\n".join(parts) if parts else repr(impl)


def _code_digest(code) -> str:
    consts = [_code_digest(c) if hasattr(c, "co_code") else repr(c) for c in code.co_consts]
    return "|".join([code.co_code.hex(), repr(consts), repr(code.co_names), repr(code.co_varnames)])


@dataclass(frozen=True)
class Attribute:
    """``x.name`` in a rule: what it applies to, what it gives, how the engine gets it."""

    name: str
    on: Kind
    result: Kind
    doc: str
    get: Callable                    # get(ctx, value) -> value


@dataclass(frozen=True)
class FactTable:
    """A ``facts NAME`` table rule files may define, with the keys it may have."""

    name: str
    keys: Tuple[str, ...]
    doc: str


class VocabularyError(ValueError):
    pass


class Registry:
    """Name -> :class:`Entry`, attribute and fact-table declarations.  A registry can be layered
    over a parent (user additions over the built-ins) so that tests can add names without
    touching global state."""

    def __init__(self, parent: Optional["Registry"] = None):
        self._entries: Dict[str, Entry] = {}
        self._attributes: Dict[str, Attribute] = {}
        self._tables: Dict[str, FactTable] = {}
        self._parent = parent

    # ---------------------------------------------------------------- entries

    def register(self, name: str, kind: str, impl: Callable, params: Optional[Sequence] = None,
                 result: Optional[Kind] = None, doc: Optional[str] = None, needs: Sequence[str] = (),
                 stages: Optional[Sequence[str]] = None, builtin: bool = False, replace: bool = False,
                 version: Optional[str] = None, arity: Optional[int] = None) -> Entry:
        if kind not in ENTRY_KINDS:
            raise VocabularyError(f"kind must be one of {ENTRY_KINDS}, not {kind!r}")
        if not name.isidentifier():
            raise VocabularyError(f"{name!r} is not a valid name")
        if not replace and self.get(name) is not None:
            raise VocabularyError(f"{name!r} is already registered")
        declared = _params_of(impl, params, arity)
        if result is None:
            result = {"predicate": Bool, "action": Nothing}.get(kind) or _result_of(impl)
        entry = Entry(name, kind, declared, result, inspect.cleandoc(doc or impl.__doc__ or ""), impl,
                      tuple(needs), tuple(stages) if stages is not None else None, builtin, version)
        self._entries[name] = entry
        return entry

    def get(self, name: str) -> Optional[Entry]:
        if name in self._entries:
            return self._entries[name]
        return self._parent.get(name) if self._parent is not None else None

    def entries(self) -> list[Entry]:
        merged: Dict[str, Entry] = {}
        if self._parent is not None:
            merged.update({e.name: e for e in self._parent.entries()})
        merged.update(self._entries)
        return sorted(merged.values(), key=lambda e: (ENTRY_KINDS.index(e.kind), e.name))

    def names(self, kinds: Iterable[str] = ENTRY_KINDS) -> list[str]:
        kinds = tuple(kinds)
        return [e.name for e in self.entries() if e.kind in kinds]

    def suggest(self, name: str, kinds: Iterable[str] = ENTRY_KINDS) -> Optional[str]:
        close = difflib.get_close_matches(name, self.names(kinds), n=1, cutoff=0.6)
        return close[0] if close else None

    # ---------------------------------------------------------------- attributes, fact tables

    def attribute(self, attr: Attribute) -> Attribute:
        self._attributes[attr.name] = attr
        return attr

    def get_attribute(self, name: str) -> Optional[Attribute]:
        if name in self._attributes:
            return self._attributes[name]
        return self._parent.get_attribute(name) if self._parent is not None else None

    def attributes(self) -> list[Attribute]:
        merged = dict(self._parent._all_attributes()) if self._parent is not None else {}
        merged.update(self._attributes)
        return sorted(merged.values(), key=lambda a: a.name)

    def _all_attributes(self) -> Dict[str, Attribute]:
        return {a.name: a for a in self.attributes()}

    def fact_table(self, table: FactTable) -> FactTable:
        self._tables[table.name] = table
        return table

    def get_fact_table(self, name: str) -> Optional[FactTable]:
        if name in self._tables:
            return self._tables[name]
        return self._parent.get_fact_table(name) if self._parent is not None else None

    def fact_tables(self) -> list[FactTable]:
        merged = {t.name: t for t in self._parent.fact_tables()} if self._parent is not None else {}
        merged.update(self._tables)
        return sorted(merged.values(), key=lambda t: t.name)

    def child(self) -> "Registry":
        return Registry(parent=self)


def _params_of(impl: Callable, params: Optional[Sequence], arity: Optional[int]) -> Tuple[Param, ...]:
    """Parameters as seen from a rule: the implementation's positional parameters after the
    leading ``ctx``, with kinds from ``params`` (kinds or ``(name, kind)`` pairs) or from the
    annotations (``Any`` where there is none)."""
    sig = inspect.signature(impl)
    names = [p.name for p in sig.parameters.values()
             if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty][1:]
    if arity is not None and arity != len(names):
        names = names[:arity] + [f"arg{i}" for i in range(len(names), arity)]
    if params is not None:
        out = []
        for i, p in enumerate(params):
            if isinstance(p, Kind):
                out.append(Param(names[i] if i < len(names) else f"arg{i}", p))
            else:
                out.append(Param(p[0], p[1]))
        return tuple(out)
    annotations = getattr(impl, "__annotations__", {})
    return tuple(Param(n, _kind_of(annotations.get(n), impl)) for n in names)


def _result_of(impl: Callable) -> Kind:
    return _kind_of(getattr(impl, "__annotations__", {}).get("return"), impl)


def _kind_of(annotation, impl: Callable) -> Kind:
    if annotation is None:
        return Any
    if isinstance(annotation, str):
        try:
            annotation = eval(annotation, dict(getattr(impl, "__globals__", {})))  # noqa: S307 - our own code's annotations
        except Exception:  # noqa: BLE001 - an annotation we cannot read declares nothing
            return Any
    if isinstance(annotation, Kind):
        return annotation
    if annotation is bool:
        return Bool
    return Any


#: The built-in vocabulary, filled by :mod:`rewrite.vocab.builtins`; user additions go to a child
#: of it (:func:`rewrite.vocab.default_registry`).
BUILTINS = Registry()


def _declare(kind: str, name: Optional[str], needs, stages, version, arity):
    def deco(fn: Callable) -> Callable:
        BUILTINS.register(name or fn.__name__.rstrip("_"), kind, fn, needs=needs, stages=stages,
                          builtin=True, version=version, arity=arity)
        return fn

    return deco


def predicate(name: Optional[str] = None, needs: Sequence[str] = (), stages: Optional[Sequence[str]] = None,
              version: Optional[str] = None):
    """Declare a built-in predicate (``fn(ctx, *args) -> bool | Verdict``)."""
    return _declare("predicate", name, needs, stages, version, None)


def function(name: Optional[str] = None, needs: Sequence[str] = (), stages: Optional[Sequence[str]] = None,
             version: Optional[str] = None):
    """Declare a built-in function (``fn(ctx, *args) -> value``)."""
    return _declare("function", name, needs, stages, version, None)


def action(name: Optional[str] = None, needs: Sequence[str] = (), stages: Optional[Sequence[str]] = None,
           version: Optional[str] = None):
    """Declare a built-in action (``fn(ctx, *args)``), usable in ``rewrite`` and ``via``."""
    return _declare("action", name, needs, stages, version, None)


def attribute(name: str, on: Kind, result: Kind, doc: str):
    """Declare a built-in node attribute; the decorated function is its getter."""
    def deco(fn: Callable) -> Callable:
        BUILTINS.attribute(Attribute(name, on, result, inspect.cleandoc(doc), fn))
        return fn

    return deco


def fact_table(name: str, keys: Sequence[str], doc: str) -> FactTable:
    """Declare a fact table rule files may define."""
    return BUILTINS.fact_table(FactTable(name, tuple(keys), inspect.cleandoc(doc)))
