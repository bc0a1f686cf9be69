"""Issue 23: `old = a.clone(); a.mul_(2); return old[3:5].clone()`.  Inductor's noop removal
drops both clones (their fake values still name the clones' storage, so its guard against an
output aliasing an input does not see it): the graph our pass receives returns `a[3:5]`, read
after the copy-back writes `a`.  Stock Inductor returns rows 3-4 doubled (and as a view of `a`);
`keep_values_read_after_copy_back` copies the two rows before the write."""
import torch

EXPECT = """
fires: keep_values_read_after_copy_back
present: rewrite.materialized_copy count=1
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(a):
    old = a.clone()
    a.mul_(2.0)
    return old[3:5].clone()


def inputs():
    return torch.arange(12.0).reshape(6, 2)
