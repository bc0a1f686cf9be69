"""Resolving op names in rule files against ``torch.ops`` (by lookup, never by evaluation).

``aten.add`` is the OpOverloadPacket ``torch.ops.aten.add``, ``aten.add.Tensor`` the OpOverload,
``higher_order.while_loop`` the HigherOrderOperator.  Names are checked against a table of the
dispatcher's ops (with their overloads and schemas' argument names) and the higher-order op
registry before any attribute of ``torch.ops`` is touched.

Checking needs only the table, not torch: in a process that has not imported torch, the table is
read from a JSON file in the user's cache folder (:mod:`rewrite.lang.cache`), so ``rewrite
check`` does not pay for importing torch.  Where torch is imported, the table is built from it
(ops registered at run time included); an :class:`OpRef`'s ``target`` imports torch when asked.
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cached_property
from typing import Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from rewrite.lang import cache
from rewrite.lang.diagnostics import Suggester

HIGHER_ORDER = "higher_order"


@dataclass(frozen=True)
class Arg:
    """One argument of an op schema, as the checker needs it."""

    name: str
    type: str                 # "Tensor", "Optional[Tensor]", "List[Optional[Tensor]]", "int"...
    kwarg_only: bool
    has_default: bool
    writes: bool              # ``Tensor(a!)``


# namespace -> op name -> overload name ("default" for the unnamed one) -> its arguments
Schemas = Dict[str, Tuple[Arg, ...]]
Table = Dict[str, Dict[str, Schemas]]


@dataclass(frozen=True)
class OpRef:
    """A resolved op: its key ``(namespace, name, overload or None)``; ``target`` is the torch
    object (resolved on first use)."""

    namespace: str
    name: str
    overload: Optional[str]

    @property
    def key(self) -> Tuple[str, str, Optional[str]]:
        return (self.namespace, self.name, self.overload)

    @property
    def dotted(self) -> str:
        return ".".join(p for p in self.key if p is not None)

    @cached_property
    def target(self) -> object:
        import torch

        if self.namespace == HIGHER_ORDER:
            return getattr(torch.ops.higher_order, self.name)
        packet = getattr(getattr(torch.ops, self.namespace), self.name)
        return packet if self.overload is None else getattr(packet, self.overload)

    def covers(self, other: "OpRef") -> bool:
        """Every node this op matches, ``other`` matches too or vice versa: same op, and this is
        the whole packet or the same overload."""
        return (self.namespace, self.name) == (other.namespace, other.name) and \
            (self.overload is None or self.overload == other.overload)


class OpLookupError(LookupError):
    def __init__(self, message: str, hint: Optional[str] = None):
        super().__init__(message)
        self.message = message
        self.hint = hint


def build_table() -> Table:
    """The table from the running torch (imports it)."""
    import torch
    from torch import _ops as torch_ops

    table: Table = {}
    for qualified in torch._C._dispatch_get_all_op_names():
        ns, _, rest = qualified.partition("::")
        table.setdefault(ns, {}).setdefault(rest.split(".")[0], {})
    for schema in torch._C._jit_get_all_schemas():
        ns, _, name = schema.name.partition("::")
        overloads = table.get(ns, {}).get(name)
        if overloads is not None:
            overloads[schema.overload_name or "default"] = tuple(
                Arg(a.name, str(a.type), a.kwarg_only, a.has_default_value(),
                    a.alias_info is not None and a.alias_info.is_write) for a in schema.arguments)
    table[HIGHER_ORDER] = {name: {} for name in getattr(torch_ops, "_higher_order_ops", {})}
    return table


def cached_table() -> Optional[Table]:
    """The table kept in the user's cache folder for the installed torch, or None."""
    raw = cache.read_json("ops")
    if raw is None:
        return None
    try:
        return {str(ns): {str(name): {str(overload): tuple(Arg(str(a), str(t), bool(k), bool(d), bool(w))
                                                           for a, t, k, d, w in args)
                                      for overload, args in overloads.items()}
                          for name, overloads in ops.items()}
                for ns, ops in raw["ops"].items()}
    except (ValueError, TypeError, KeyError, AttributeError):
        return None


def store_table(table: Table) -> None:
    """Keep ``table`` in the user's cache folder (failing to only costs the next run time)."""
    cache.write_json("ops", {"ops": {ns: {name: {ov: [[a.name, a.type, a.kwarg_only, a.has_default, a.writes]
                                                      for a in args]
                                                 for ov, args in overloads.items()}
                                          for name, overloads in ops.items()} for ns, ops in table.items()}})


class OpTable:
    """The op names torch knows, per namespace.  A name that is not found makes the table be
    rebuilt from torch once per check run (:meth:`begin`), and only where that can help: when
    torch is imported (ops may have been registered since the table was built)."""

    def __init__(self):
        self._table: Optional[Table] = None
        self._from_torch = False
        self._may_refresh = True
        self._resolved: Dict[Tuple[str, ...], object] = {}  # parts -> OpRef or OpLookupError
        self._names: Dict[str, FrozenSet[str]] = {}
        self._suggest = Suggester()

    # ---------------------------------------------------------------- the table
    def table(self) -> Table:
        if self._table is None:
            self._load()
        return self._table

    def _load(self) -> None:
        if "torch" in sys.modules:
            self._set(build_table(), from_torch=True)
            return
        cached = cached_table()
        if cached is not None:
            self._set(cached, from_torch=False)
            return
        table = build_table()  # imports torch here, with nothing else registered: what the cache holds
        store_table(table)
        self._set(table, from_torch=True)

    def _set(self, table: Table, from_torch: bool) -> None:
        self._table = table
        self._from_torch = from_torch
        self._resolved.clear()
        self._names.clear()

    def begin(self) -> None:
        """A new check run: one refresh on a miss is allowed again, and a new budget of
        "did you mean" suggestions."""
        self._may_refresh = True
        self._suggest = Suggester()

    def _refresh(self) -> bool:
        """Rebuild from torch after a miss, if that may find something new."""
        if not self._may_refresh or not (self._from_torch or "torch" in sys.modules):
            return False
        self._may_refresh = False
        self._set(build_table(), from_torch=True)
        return True

    def ops(self) -> Dict[str, Set[str]]:
        """namespace -> op names."""
        return {ns: set(names) for ns, names in self.table().items()}

    def op_names(self, namespace: str) -> FrozenSet[str]:
        if namespace not in self._names:
            self._names[namespace] = frozenset(self.table().get(namespace, ()))
        return self._names[namespace]

    def schemas(self, op: OpRef) -> Optional[List[Tuple[str, Tuple[Arg, ...]]]]:
        """``(overload name, arguments)`` of each schema ``op`` can have; None for ops without
        schemas (higher-order ops)."""
        if op.namespace == HIGHER_ORDER:
            return None
        overloads = self.table().get(op.namespace, {}).get(op.name, {})
        if op.overload is not None:
            overloads = {op.overload: overloads[op.overload]} if op.overload in overloads else {}
        return list(overloads.items()) or None

    # ---------------------------------------------------------------- resolving
    def resolve(self, parts: Sequence[str]) -> OpRef:
        """The op ``parts`` names (``("aten", "add", "Tensor")``); :class:`OpLookupError` with a
        message and hint if there is none.  Answers, misses included, are cached."""
        parts = tuple(parts)
        found = self._resolved.get(parts)
        if found is None:
            try:
                found = self._resolve(parts)
            except OpLookupError as exc:
                if self._refresh():
                    return self.resolve(parts)
                found = exc
            self._resolved[parts] = found
        if isinstance(found, OpLookupError):
            raise found
        return found

    def _resolve(self, parts: Tuple[str, ...]) -> OpRef:
        dotted = ".".join(parts)
        if any(p.startswith("__") for p in parts) or len(parts) < 2:
            raise OpLookupError(f"unknown op '{dotted}'")
        ns, name = parts[0], parts[1]
        table = self.table()
        if ns not in table:
            close = self._suggest.close(ns, sorted(table))
            raise OpLookupError(f"unknown op namespace '{ns}' in '{dotted}'",
                                f"did you mean '{close}'?" if close else None)
        if name not in table[ns]:
            close = self._suggest.close(name, sorted(table[ns]), cutoff=0.7)
            raise OpLookupError(f"unknown op '{ns}.{name}'",
                                f"did you mean '{ns}.{close}'?" if close else None)
        if ns == HIGHER_ORDER:
            if len(parts) > 2:
                raise OpLookupError(f"higher-order op '{ns}.{name}' has no overloads; write '{ns}.{name}'")
            return OpRef(ns, name, None)
        if len(parts) == 2:
            return OpRef(ns, name, None)
        overload = parts[2]
        overloads = list(table[ns][name])
        if len(parts) > 3 or overload not in overloads:
            close = self._suggest.close(overload, overloads)
            hint = f"did you mean '{ns}.{name}.{close}'?" if close else f"overloads: {', '.join(overloads)}"
            raise OpLookupError(f"unknown overload '{dotted}'", hint)
        return OpRef(ns, name, overload)


OPS = OpTable()


def max_positional(ops: Sequence[OpRef]) -> Optional[int]:
    """The most positional arguments any schema of any of ``ops`` takes; None if some op has no
    schema (higher-order ops), so nothing can be concluded."""
    best = 0
    for op in ops:
        schemas = OPS.schemas(op)
        if schemas is None:
            return None
        best = max([best] + [sum(1 for a in args if not a.kwarg_only) for _, args in schemas])
    return best


def argument_names(ops: Sequence[OpRef]) -> Optional[FrozenSet[str]]:
    names: Set[str] = set()
    for op in ops:
        schemas = OPS.schemas(op)
        if schemas is None:
            return None
        names.update(a.name for _, args in schemas for a in args)
    return frozenset(names)


def argument_types(ops: Sequence[OpRef], position: Optional[int] = None,
                   name: Optional[str] = None) -> Optional[FrozenSet[str]]:
    """The schema types (``Tensor``, ``List[Optional[Tensor]]``, ``int``...) the argument at
    positional ``position`` (or called ``name``) has across every schema of ``ops``; None when
    some op has no schema."""
    types: Set[str] = set()
    for op in ops:
        schemas = OPS.schemas(op)
        if schemas is None:
            return None
        for _, args in schemas:
            if name is not None:
                chosen = [a for a in args if a.name == name]
            else:
                chosen = [a for a in args if not a.kwarg_only][position:position + 1]
            types.update(a.type for a in chosen)
    return frozenset(types)


def overload_schemas(op: OpRef) -> Optional[List[Tuple[str, Tuple[Arg, ...]]]]:
    """For a resolved op (a packet or an overload): ``[(overload name, arguments)]``; None for
    higher-order ops."""
    return OPS.schemas(op)


def intersects(a: Sequence[OpRef], b: Sequence[OpRef]) -> bool:
    return any(x.covers(y) or y.covers(x) for x in a for y in b)


def contains(outer: Sequence[OpRef], inner: Sequence[OpRef]) -> bool:
    return all(any(o.covers(i) for o in outer) for i in inner)
