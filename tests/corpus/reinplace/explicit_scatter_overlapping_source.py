"""`x.copy_(torch.slice_scatter(x, x[1:3], 0, 0, 2))`: an explicit scatter whose source is a
view of the input overlapping the region written (rows 1..2 into rows 0..1).  Written in place
as it is, row 1 would be overwritten before it is read; the rule copies the two source rows
first (16 bytes, not the 24-byte input) and writes in place."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
copies: <= 16 bytes
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x.copy_(torch.slice_scatter(x, x[1:3], 0, 0, 2))


def inputs():
    return (torch.arange(12.0).reshape(6, 2),)
