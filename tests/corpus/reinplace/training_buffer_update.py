"""Training graph: a buffer (no grad) is updated in place while a weight gets
gradients; the buffer's copy-back stays in the forward graph."""
import torch

EXPECT = """
fires: reinplace_update_into_input in forward
matches_eager
"""
MODE = "training"
CALLS = 3


def fn(w, buf, x):
    buf[1:3].add_(1.0)
    return (x @ w).sum() + buf.sum()


def inputs():
    return torch.randn(4, 4, requires_grad=True), torch.zeros(5), torch.randn(3, 4)
