"""Issue 23, training: `old = a.clone(); a.mul_(2)` and the old rows feed a loss.  The forward
graph keeps the mutation of `a` in the graph and saves `a[3:5]` (the clone dropped) for backward,
after the copy-back: stock Inductor's gradient of `w` comes out doubled.  The saved rows are
copied before the write."""
import torch

EXPECT = """
fires: keep_values_read_after_copy_back in forward
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = "both"


def fn(a, w):
    old = a.clone()
    a.mul_(2.0)
    return (old[3:5] * w).sum()


def inputs():
    return torch.arange(12.0).reshape(6, 2), torch.ones(2, requires_grad=True)
