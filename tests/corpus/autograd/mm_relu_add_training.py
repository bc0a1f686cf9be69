"""`relu(a @ b) + c` in training: relu keeps its output for backward."""
import torch

EXPECT = """
not fires: reinplace_dead_intermediate in forward
matches_eager
"""
MODE = "training"
CALLS = 3


def fn(a, b, c):
    return torch.relu(a @ b) + c


def inputs():
    return (torch.randn(4, 5, requires_grad=True), torch.randn(5, 3, requires_grad=True),
            torch.randn(4, 3, requires_grad=True))
