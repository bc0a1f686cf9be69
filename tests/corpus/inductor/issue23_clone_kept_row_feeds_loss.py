"""Issue 23, training: one old row feeds a loss, and the mutated input is returned."""
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
    a.mul_(2.0)
    return (old[1] * w).sum(), a


def inputs():
    return torch.arange(12.0).reshape(6, 2), torch.ones(2, requires_grad=True)
