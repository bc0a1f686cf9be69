"""The copy the engine emits to materialize a value: ``rewrite::materialized_copy``.

It used to be ``copy_(empty_like(x), clone(x))``, which Inductor lowers as a buffer computed by
a loop of its own; but its scheduler may then fuse that loop into a consumer that writes what the
copy read, and drop the buffer as kernel-local: the copy is gone and the consumer reads memory
it has already overwritten (found by the fuzzer, `x[4:5].t().mul_(0.5); x[:, 3].add_(x[0].tanh())`:
the copy of `x[0]` was fused into the loop writing `x[:, 3]`).  Inductor calls a custom op as an
extern kernel, which it neither inlines nor fuses, and orders before the next write of what it
reads: a copy that stays a copy.  Its values are its operand's (the analyses read it as
``aten.clone``), in a fresh buffer with the operand's strides where they are dense.
"""
from __future__ import annotations

import torch

# torch.library's low-level API rather than @custom_op: the call costs about 4 us on CPU instead
# of 12 (no Python autograd wrapper; compiled graphs run without autograd anyway).
_LIB = torch.library.Library("rewrite", "FRAGMENT")
try:
    torch.ops.rewrite.materialized_copy.default
except (AttributeError, RuntimeError):
    # exact strides: Inductor passes the operand laid out as traced, whatever the global
    # custom-op layout setting; the fake clones too, so fake and real strides agree everywhere
    _LIB.define("materialized_copy(Tensor x) -> Tensor", tags=(torch.Tag.needs_exact_strides,))
    _LIB.impl("materialized_copy", lambda x: x.clone(), "CompositeExplicitAutograd")

    @torch.library.register_fake("rewrite::materialized_copy", lib=_LIB)
    def _materialized_copy_fake(x: torch.Tensor) -> torch.Tensor:
        return x.clone()


MATERIALIZED_COPY = torch.ops.rewrite.materialized_copy.default


def is_materialized_copy(node) -> bool:
    return getattr(node, "op", None) == "call_function" and node.target in (MATERIALIZED_COPY,
                                                                          torch.ops.rewrite.materialized_copy)
