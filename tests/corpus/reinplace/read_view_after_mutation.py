"""A view of the updated input is read after the mutation: after reinplacing the
read sees x, which holds the same (updated) value."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    x[1:-1].add_(d)
    return x[2:4] * 2


def inputs():
    return torch.randn(8), torch.randn(6)
