"""`(a @ b).t() + c`: the add's operand is a view of the matmul."""
import torch

EXPECT = """
not fires: reinplace_dead_intermediate
matches_eager
"""
MODE = "inference"
CALLS = 2


def fn(a, b, c):
    return (a @ b).t() + c


def inputs():
    return torch.randn(4, 5), torch.randn(5, 3), torch.randn(3, 4)
