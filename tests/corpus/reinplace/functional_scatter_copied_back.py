"""`x.copy_(torch.slice_scatter(x, d, 0, 1, 3))`: user code that updates functionally and copies
the result back.  The scatter reaches the copy-back through a functional `aten.copy` step; the
update is written straight into the slice of x, with no clone of x."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
absent: aten.copy
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    x.copy_(torch.slice_scatter(x, d, 0, 1, 3))


def inputs():
    return torch.randn(6), torch.randn(2)
