"""`y + y.flip(0)`: flip is a copy, so the matmul buffer can take the result."""
import torch

EXPECT = """
fires: reinplace_dead_intermediate
matches_eager
"""
MODE = "inference"
CALLS = 2


def fn(a, b):
    y = a @ b
    return y + y.flip(0)


def inputs():
    return torch.randn(4, 5), torch.randn(5, 4)
