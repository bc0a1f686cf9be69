"""The input is non-contiguous (a transposed tensor); the slice update's scatter
may come out with a different layout than the input."""
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


def inputs():
    return torch.randn(5, 6).t(), torch.randn(4, 5)
