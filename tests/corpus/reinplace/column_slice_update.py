"""A slice along dim 1 (a non-contiguous region of a contiguous input)."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    x[:, 1:3].add_(d)


def inputs():
    return torch.randn(4, 5), torch.randn(4, 2)
