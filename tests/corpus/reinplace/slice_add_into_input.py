"""`x[1:-1].add_(d)` on an input, nothing reads x afterwards: the slice_scatter and
its copy-back become one in-place add into x."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
present: aten.copy_ count=1
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    x[1:-1].add_(d)


def inputs():
    return torch.randn(8), torch.randn(6)
