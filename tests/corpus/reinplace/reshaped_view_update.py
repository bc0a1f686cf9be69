"""A mutation through a reshape view: the scatter's base is the reshaped view,
not the input, and the value is reshaped back before the copy-back."""
import torch

EXPECT = """
fires: reinplace_scatter_into_view_of_input
absent: aten.select_scatter
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x.view(4, 2)[1].add_(1.0)


def inputs():
    return (torch.randn(8),)
