"""Issue 23, where nothing is to be repaired: the old value is only read before the write
(its sum), so dropping the clone is right and no copy is added."""
import torch

EXPECT = """
not fires: keep_values_read_after_copy_back
absent: rewrite.materialized_copy
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(a):
    old = a.clone()
    s = old.sum(0)
    a.mul_(2.0)
    return s


def inputs():
    return torch.arange(12.0).reshape(6, 2)
