"""The input is read before the slice update (the sum is computed first): reading
the old value before the mutation is fine."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    total = x.sum()
    x[1:-1].add_(d)
    return total


def inputs():
    return torch.randn(8), torch.randn(6)
