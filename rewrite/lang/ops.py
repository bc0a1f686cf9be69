"""Resolving op names in rule files against ``torch.ops`` (by lookup, never by evaluation).

``aten.add`` is the OpOverloadPacket ``torch.ops.aten.add``, ``aten.add.Tensor`` the OpOverload,
``higher_order.while_loop`` the HigherOrderOperator.  Names are checked against the dispatcher's
op list (and the higher-order op registry) before any attribute of ``torch.ops`` is touched.
"""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Dict, FrozenSet, Optional, Sequence, Set, Tuple

HIGHER_ORDER = "higher_order"


@dataclass(frozen=True)
class OpRef:
    """A resolved op: its key ``(namespace, name, overload or None)`` and the torch object."""

    namespace: str
    name: str
    overload: Optional[str]
    target: object

    @property
    def key(self) -> Tuple[str, str, Optional[str]]:
        return (self.namespace, self.name, self.overload)

    @property
    def dotted(self) -> str:
        return ".".join(p for p in self.key if p is not None)

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


class OpTable:
    """The op names torch knows, per namespace; refreshed once on a miss (ops may be registered
    after the table was first built)."""

    def __init__(self):
        self._ops: Optional[Dict[str, Set[str]]] = None
        self._refreshed_for: Set[str] = set()

    def _build(self) -> Dict[str, Set[str]]:
        import torch
        from torch import _ops as torch_ops

        ops: Dict[str, Set[str]] = {}
        for qualified in torch._C._dispatch_get_all_op_names():
            ns, _, rest = qualified.partition("::")
            ops.setdefault(ns, set()).add(rest.split(".")[0])
        ops[HIGHER_ORDER] = set(getattr(torch_ops, "_higher_order_ops", {}))
        return ops

    def ops(self, refresh_for: Optional[str] = None) -> Dict[str, Set[str]]:
        if self._ops is None or (refresh_for is not None and refresh_for not in self._refreshed_for):
            if self._ops is not None:
                self._refreshed_for.add(refresh_for)
            self._ops = self._build()
        return self._ops

    def resolve(self, parts: Sequence[str]) -> OpRef:
        import torch

        dotted = ".".join(parts)
        if any(p.startswith("__") for p in parts) or len(parts) < 2:
            raise OpLookupError(f"unknown op '{dotted}'")
        ns, name = parts[0], parts[1]
        ops = self.ops()
        if ns not in ops or name not in ops[ns]:
            ops = self.ops(refresh_for=dotted)
        if ns not in ops:
            close = difflib.get_close_matches(ns, sorted(ops), n=1)
            raise OpLookupError(f"unknown op namespace '{ns}' in '{dotted}'",
                                f"did you mean '{close[0]}'?" if close else None)
        if name not in ops[ns]:
            close = difflib.get_close_matches(name, sorted(ops[ns]), n=1, cutoff=0.7)
            raise OpLookupError(f"unknown op '{ns}.{name}'",
                                f"did you mean '{ns}.{close[0]}'?" if close else None)
        if ns == HIGHER_ORDER:
            if len(parts) > 2:
                raise OpLookupError(f"higher-order op '{ns}.{name}' has no overloads; write '{ns}.{name}'")
            return OpRef(ns, name, None, getattr(torch.ops.higher_order, name))
        packet = getattr(getattr(torch.ops, ns), name)
        if len(parts) == 2:
            return OpRef(ns, name, None, packet)
        overload = parts[2]
        overloads = list(packet.overloads())
        if len(parts) > 3 or overload not in overloads:
            close = difflib.get_close_matches(overload, overloads, n=1)
            hint = f"did you mean '{ns}.{name}.{close[0]}'?" if close else f"overloads: {', '.join(overloads)}"
            raise OpLookupError(f"unknown overload '{dotted}'", hint)
        return OpRef(ns, name, overload, getattr(packet, overload))

    def op_names(self, namespace: str) -> FrozenSet[str]:
        return frozenset(self.ops().get(namespace, ()))


def _schemas(op: OpRef):
    import torch

    if op.namespace == HIGHER_ORDER:
        return None
    schemas = torch._C._jit_get_schemas_for_operator(f"{op.namespace}::{op.name}")
    if op.overload is not None:
        wanted = "" if op.overload == "default" else op.overload
        schemas = [s for s in schemas if s.overload_name == wanted]
    return schemas or None


def max_positional(ops: Sequence[OpRef]) -> Optional[int]:
    """The most positional arguments any schema of any of ``ops`` takes; None if some op has no
    schema (higher-order ops), so nothing can be concluded."""
    best = 0
    for op in ops:
        schemas = _schemas(op)
        if schemas is None:
            return None
        best = max([best] + [sum(1 for a in s.arguments if not a.kwarg_only) for s in schemas])
    return best


def argument_names(ops: Sequence[OpRef]) -> Optional[FrozenSet[str]]:
    names: Set[str] = set()
    for op in ops:
        schemas = _schemas(op)
        if schemas is None:
            return None
        names.update(a.name for s in schemas for a in s.arguments)
    return frozenset(names)


def argument_types(ops: Sequence[OpRef], position: Optional[int] = None, name: Optional[str] = None) -> Optional[FrozenSet[str]]:
    """The schema types (``Tensor``, ``Tensor?[]``, ``int``...) the argument at ``position`` (or
    called ``name``) has across every schema of ``ops``; None when some op has no schema."""
    types: Set[str] = set()
    for op in ops:
        schemas = _schemas(op)
        if schemas is None:
            return None
        for s in schemas:
            args = [a for a in s.arguments if position is None or not a.kwarg_only]
            if name is not None:
                args = [a for a in s.arguments if a.name == name]
            elif position is not None:
                args = args[position:position + 1]
            types.update(str(a.type) for a in args)
    return frozenset(types)


@dataclass(frozen=True)
class Arg:
    name: str
    type: str
    kwarg_only: bool
    has_default: bool
    writes: bool


def overload_schemas(op: OpRef) -> Optional[list]:
    """For a resolved op (a packet or an overload): ``[(overload name, [Arg...])]``; None for
    higher-order ops."""
    schemas = _schemas(op)
    if schemas is None:
        return None
    out = []
    for s in schemas:
        args = [Arg(a.name, str(a.type), a.kwarg_only, a.has_default_value(),
                    a.alias_info is not None and a.alias_info.is_write) for a in s.arguments]
        out.append((s.overload_name or "default", args))
    return out


def intersects(a: Sequence[OpRef], b: Sequence[OpRef]) -> bool:
    return any(x.covers(y) or y.covers(x) for x in a for y in b)


def contains(outer: Sequence[OpRef], inner: Sequence[OpRef]) -> bool:
    return all(any(o.covers(i) for o in outer) for i in inner)


OPS = OpTable()
