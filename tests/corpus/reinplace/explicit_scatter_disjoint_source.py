"""`x.copy_(torch.slice_scatter(x, x[4:6], 0, 0, 2))`: the source is a view of the input, but of
rows the scatter does not write, so the scatter may be written in place."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x.copy_(torch.slice_scatter(x, x[4:6], 0, 0, 2))


def inputs():
    return (torch.arange(12.0).reshape(6, 2),)
