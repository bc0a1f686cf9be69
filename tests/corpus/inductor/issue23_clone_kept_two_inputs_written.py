"""Issue 23: `b.copy_(a * 2); a.zero_()` after keeping `old = a.clone()`: two inputs are
written back, and the old rows of `a` are returned."""
import torch

EXPECT = """
fires: keep_values_read_after_copy_back
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(a, b):
    old = a.clone()
    b.copy_(a * 2)
    a.zero_()
    return old[3:5].clone()


def inputs():
    return torch.arange(12.0).reshape(6, 2), torch.zeros(6, 2)
