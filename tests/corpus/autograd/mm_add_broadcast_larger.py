"""`(a @ b) + c` where the result is larger than the matmul output (broadcast):
the layouts differ."""
import torch

EXPECT = """
rejects: reinplace_dead_intermediate at safe
not fires: reinplace_dead_intermediate
matches_eager
"""
MODE = "inference"
CALLS = 2


def fn(a, b, c):
    return (a @ b) + c


def inputs():
    return torch.randn(4, 5), torch.randn(5, 1), torch.randn(4, 6)
