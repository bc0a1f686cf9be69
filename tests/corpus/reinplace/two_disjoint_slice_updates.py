"""Two slice updates of the same input; the second scatter's base is the first."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[:2].add_(1.0)
    x[5:].mul_(2.0)


def inputs():
    return (torch.randn(8),)
