"""`y + y.t()` for a square matmul result: the other operand is a transposed view
of the buffer that would be overwritten."""
import torch

EXPECT = """
rejects: reinplace_dead_intermediate at safe
not fires: reinplace_dead_intermediate
matches_eager
"""
MODE = "inference"
CALLS = 2


def fn(a, b):
    y = a @ b
    return y + y.t()


def inputs():
    return torch.randn(4, 5), torch.randn(5, 4)
