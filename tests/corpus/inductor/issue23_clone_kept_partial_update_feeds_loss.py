"""Issue 23, training: the old rows, read across a partial update, feed a loss."""
import torch

EXPECT = """
fires: keep_values_read_after_copy_back in forward
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = "both"


def fn(a, w):
    old = a.clone()
    a[2:].add_(1.0)
    return (old[3:5] * w).sum()


def inputs():
    return torch.arange(12.0).reshape(6, 2), torch.ones(2, requires_grad=True)
