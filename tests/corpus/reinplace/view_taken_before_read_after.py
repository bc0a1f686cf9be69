"""A view taken before the mutation and read after it: in eager the view sees the
new values, so functionalization regenerates it from the updated value; written in place, the
view is taken of the input after the write and reads the same values."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    window = x[2:5]
    x[1:-1].add_(d)
    return window * 3


def inputs():
    return torch.randn(8), torch.randn(6)
