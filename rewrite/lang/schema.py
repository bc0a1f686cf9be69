"""One argument of an op schema, as the checker needs it (kept in the torch-free op table)."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Arg:
    name: str
    type: str                 # "Tensor", "Optional[Tensor]", "List[Optional[Tensor]]", "int"...
    kwarg_only: bool
    has_default: bool
    writes: bool              # ``Tensor(a!)``
