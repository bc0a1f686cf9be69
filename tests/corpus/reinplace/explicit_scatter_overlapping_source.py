"""`x.copy_(torch.slice_scatter(x, x[1:3], 0, 0, 2))`: an explicit scatter whose source is a
view of the input overlapping the region written (rows 1..2 into rows 0..1).  Written in place,
row 1 would be overwritten before it is read."""
import torch

EXPECT = """
rejects: reinplace_scatter_into_input at safe because operands_overlap_write(slice_scatter) is true
matches_eager exact
"""
MODE = "inference"
CALLS = 2


def fn(x):
    x.copy_(torch.slice_scatter(x, x[1:3], 0, 0, 2))


def inputs():
    return (torch.arange(12.0).reshape(6, 2),)
