"""`x[2].mul_(s)`: a select_scatter into the input."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.select_scatter
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, s):
    x[2].mul_(s)


def inputs():
    return torch.randn(5, 4), torch.randn(4)
