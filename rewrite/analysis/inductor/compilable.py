"""Which ops Inductor can compile: a rewrite must not emit one it cannot.

Inductor lowers an op through its lowering table, or calls it as an extern fallback.  A fallback
is refused for an op that also has a decomposition (``both a fallback and a decomp for same op``),
and under ``CI`` for any op torch has a decomposition for, so an op such as ``aten.sin_`` passes
every check on the eager base and then crashes Inductor.
"""
from __future__ import annotations

import functools
from typing import Optional

import torch


@functools.lru_cache(maxsize=None)
def cannot_compile(op) -> Optional[str]:
    """None if Inductor can compile ``op``, else why not."""
    if not isinstance(op, torch._ops.OpOverload):
        return None
    from torch._decomp import get_decompositions
    from torch._inductor.decomposition import select_decomp_table
    from torch._inductor.lowering import FALLBACK_ALLOW_LIST, lowerings

    if op in lowerings or op.name().split(".")[0] in FALLBACK_ALLOW_LIST:
        return None
    if op in select_decomp_table() or get_decompositions([op]):
        return (f"Inductor has no lowering for {op} and will not call it as a fallback "
                f"(it has a decomposition, which only applies before the post-grad passes)")
    return None
