"""Issue 23: the old value read through a transpose, `return old.t().clone()`, after
`a.mul_(2)`: the graph our pass receives returns `a.t()` after the copy-back of `a`."""
import torch

EXPECT = """
fires: keep_values_read_after_copy_back
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(a):
    old = a.clone()
    a.mul_(2.0)
    return old.t().clone()


def inputs():
    return torch.arange(12.0).reshape(6, 2)
