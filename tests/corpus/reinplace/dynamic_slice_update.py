"""The slice update with dynamic shapes: the overlap and layout checks work on
symbolic sizes."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
matches_eager
"""
MODE = "inference"
CALLS = 3
DYNAMIC = True


def fn(x, d):
    x[1:-1].add_(d)


def inputs():
    return torch.randn(9), torch.randn(7)
