"""Issue 23, output memory: `a.clone()[1:3].clone()` mutates nothing, yet stock Inductor's noop
removal drops both clones and returns `a[1:3]`, a view of the caller's `a` (writing into the
result would write the argument).  The engine's net gives the output memory of its own."""
import torch

EXPECT = """
not fires: keep_values_read_after_copy_back
present: rewrite.materialized_copy count=1
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(a):
    return a.clone()[1:3].clone()


def inputs():
    return torch.arange(12.0).reshape(6, 2)
