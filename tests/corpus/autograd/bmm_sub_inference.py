"""`bmm(a, b) - c` in inference."""
import torch

EXPECT = """
fires: reinplace_dead_intermediate
matches_eager
"""
MODE = "inference"
CALLS = 2


def fn(a, b, c):
    return torch.bmm(a, b) - c


def inputs():
    return torch.randn(2, 3, 4), torch.randn(2, 4, 5), torch.randn(2, 3, 5)
