"""The matmul result is read again after the add: it is not dead."""
import torch

EXPECT = """
rejects: reinplace_dead_intermediate at where
not fires: reinplace_dead_intermediate
matches_eager
"""
MODE = "inference"
CALLS = 2


def fn(a, b, c):
    y = a @ b
    z = y + c
    return z, y.sum()


def inputs():
    return torch.randn(4, 5), torch.randn(5, 3), torch.randn(4, 3)
