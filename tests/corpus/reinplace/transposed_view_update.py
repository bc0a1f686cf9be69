"""Update through a transposed view: `x.t()[1].add_(d)` writes column 1."""
import torch

EXPECT = """
fires: reinplace_scatter_into_view_of_input
absent: aten.select_scatter
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    x.t()[1].add_(d)


def inputs():
    return torch.randn(4, 3), torch.randn(4)
