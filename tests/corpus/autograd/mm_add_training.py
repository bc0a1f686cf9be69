"""`a @ b + c` in training: mm saves its inputs, not its output, so reusing the
mm buffer for the add is safe."""
import torch

EXPECT = """
fires: reinplace_dead_intermediate in forward
matches_eager
inductor
"""
MODE = "training"
CALLS = 3


def fn(a, b, c):
    return a @ b + c


def inputs():
    return (torch.randn(4, 5, requires_grad=True), torch.randn(5, 3, requires_grad=True),
            torch.randn(4, 3, requires_grad=True))
