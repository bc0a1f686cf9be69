"""Issue #8, r3: `t = x @ x.t(); t[3] = v; return t + 1.0`: writing row 3 into the matmul's buffer
is safe, and the `+ 1.0` must read the written row (row 3 came out 100 instead of 101 when the
add was fused into a loop that still read the old buffer)."""
import torch

EXPECT = """
fires: reinplace_scatter_into_intermediate
absent: aten.select_scatter
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x, v):
    t = x @ x.t()
    t[3] = v
    return t + 1.0


def inputs():
    return torch.arange(12.0).reshape(6, 2) / 4, torch.full((6,), 100.0)
