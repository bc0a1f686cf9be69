"""Issue 23: `return old[1].clone(), a`: one row of the old value and the mutated input
itself.  The row is copied before the copy-back; the input stays what AOTAutograd returns for it."""
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
    a.mul_(2.0)
    return old[1].clone(), a


def inputs():
    return torch.arange(12.0).reshape(6, 2)
