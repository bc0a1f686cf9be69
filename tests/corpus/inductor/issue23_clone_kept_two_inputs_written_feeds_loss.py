"""Issue 23, training: two inputs written back (`b.copy_(a * 2); a.zero_()`), the old rows of
`a` feed a loss."""
import torch

EXPECT = """
fires: keep_values_read_after_copy_back in forward
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = "both"


def fn(a, b, w):
    old = a.clone()
    b.copy_(a * 2)
    a.zero_()
    return (old[3:5] * w).sum()


def inputs():
    return torch.arange(12.0).reshape(6, 2), torch.zeros(6, 2), torch.ones(2, requires_grad=True)
