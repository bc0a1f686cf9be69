"""Issue 23: the old value kept across a partial update, `a[2:].add_(1)`: the rows read
(3-4) are among the updated ones."""
import torch

EXPECT = """
fires: keep_values_read_after_copy_back
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(a):
    old = a.clone()
    a[2:].add_(1.0)
    return old[3:5].clone()


def inputs():
    return torch.arange(12.0).reshape(6, 2)
