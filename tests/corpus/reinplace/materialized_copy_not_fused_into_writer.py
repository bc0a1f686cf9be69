"""`x[4:5].t().mul_(0.5); x[:, 3].add_(x[0].tanh())`: the column update reads row 0, which it
writes at (0, 3).  The rule writes the column in place and copies row 0 first.  When that copy
was `copy_(empty_like(r), clone(r))`, Inductor fused its loop into the column's loop and dropped
the buffer, so the update read (0, 3) after writing it (rewrite wrong, stock right; found inside
`rewrite fuzz --seed 0 --n 1500` program 665).  The copy is now an extern op Inductor does not
fuse."""
import torch

EXPECT = """
fires: reinplace_update_into_input
present: rewrite.materialized_copy on inductor
absent: rewrite.materialized_copy on eager
absent: aten.slice_scatter
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1):
    x1.narrow(0, 4, 1).t().mul_(0.5)
    x1[:, 3].add_(x1[0].tanh())


def inputs():
    return (torch.randint(-4, 5, (5, 5)).float(),)
