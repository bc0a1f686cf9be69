"""`x0.add_(x0.flip(0))`, then a `cond` branch writes `x0.select(2, 1)[:, 1]`, a view at storage
offset `s58 + 1` under dynamic shapes (`rewrite fuzz --seed 197` program 740, minimized).  The
view is strided, so `cond_captured_mutations` declines and the `cond` reaches the post-grad graph
as `auto_functionalized_v2` over the `add` that stands for `x0`, its view's offset given as
`sym_storage_offset`.  Stock Inductor passed the branch that view at offset 0 (stock wrong,
aot_eager right, static shapes right); the operand-layout step forces the `add` to its fake
strides, unchanged, so its offsets are the fake value's, and the offset is named by its
expression over the size symbols (`symbolic_offsets`)."""
import torch

EXPECT = """
warns: left to the compiler
present: prims.inductor_force_stride_order
absent: aten.sym_storage_offset
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    x0.add_(x0.flip(0))
    v1 = x0.select(2, 1)[:, 1]

    def true_fn(p):
        return p.clone()

    def false_fn(p):
        v1[1] = 3.0
        return p - 1

    torch.cond(x0.sum() > 0, true_fn, false_fn, (v1,))


def inputs():
    return (torch.arange(12.0).reshape(2, 2, 3) - 8.0,)     # sum < 0: the branch that writes
