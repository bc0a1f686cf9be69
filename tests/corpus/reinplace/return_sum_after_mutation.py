"""The updated input is reduced after the mutation (`x.sum()` reads the scatter)."""
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
    return x.sum()


def inputs():
    return torch.randn(8), torch.randn(6)
