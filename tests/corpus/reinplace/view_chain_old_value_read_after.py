"""`old = x.clone(); x.t()[0].add_(1.0); return old + 1`: an update through a transposed view,
with the old value of x read afterwards (the clone becomes x).  Written in place, `old + 1`
would see the updated column: the rule stops at `safe`."""
import torch

EXPECT = """
rejects: reinplace_scatter_into_view_of_input at safe because alias_used_between
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    old = x.clone()
    x.t()[0].add_(1.0)
    return old + 1


def inputs():
    return (torch.arange(12.0).reshape(3, 4),)
