"""A copy `t1` of the input gets a column update (`index_add_` through a strided view), then a
masked update (`t1[t1 > 1] = 0.5`); the same tensor comes in twice.  The rules write the column
update in place into the copy (`copy_` into a view of it), and Inductor's own reinplacing then
makes the masked update write the whole copy in place.  Inductor orders a write of a whole
buffer it computed before an earlier write of part of it through a view (seen in its generated
code: the masked fill ran first, the column copy after it, fuzz `--seed 0 --n 5000` program
559, rewrite only).  The lowering model knows this order ("reordered"), and the masked update
gets a private copy (`privatize_for_inductor`)."""
import torch

EXPECT = """
fires: reinplace_scatter_into_intermediate on inductor
fires: privatize_for_inductor
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1, x2):
    t1 = x1.clone()
    t1[:, ::2].index_add_(1, torch.tensor([1]), x2[:, 1:2].tanh())
    t1.t().t()[t1.t().t() > 1] = 0.5
    x1[:, :][4:] = x1[:, :][:-4].clone()
    return t1


def inputs():
    base1 = torch.randint(-4, 5, (5, 3)).float()
    return base1, base1
