"""`x[0].copy_(x[3])`: the source is a view of the input but a different row,
so the memory does not overlap and the scatter may be written in place."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.select_scatter
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[0].copy_(x[3])


def inputs():
    return (torch.arange(16.0).reshape(4, 4),)
