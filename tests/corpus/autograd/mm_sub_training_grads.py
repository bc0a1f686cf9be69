"""Training through two matmuls and a subtraction; gradients are compared."""
import torch

EXPECT = """
fires: reinplace_dead_intermediate in forward
matches_eager
"""
MODE = "training"
CALLS = 3


def fn(a, b, c):
    h = a @ b - c
    return h @ b.t()


def inputs():
    return (torch.randn(3, 4, requires_grad=True), torch.randn(4, 4, requires_grad=True),
            torch.randn(3, 4, requires_grad=True))
