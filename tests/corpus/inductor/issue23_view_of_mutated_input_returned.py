"""Issue 23, where nothing is to be repaired: the program returns a view of the mutated input
(AOTAutograd regenerates it from the input) and a clone of the updated rows (derived from the
write): no value is read after the copy-back that the program read before it."""
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
    a.mul_(2.0)
    return a[3:5], a[1:3].clone()


def inputs():
    return torch.arange(12.0).reshape(6, 2)
