"""`(a @ b - c) * d / e`: a chain of binary ops on a matmul result."""
import torch

EXPECT = """
fires: reinplace_dead_intermediate
matches_eager
"""
MODE = "inference"
CALLS = 2


def fn(a, b, c, d, e):
    return (a @ b - c) * d / e


def inputs():
    return (torch.randn(3, 4), torch.randn(4, 5), torch.randn(3, 5), torch.randn(3, 5),
            torch.rand(3, 5) + 1)
