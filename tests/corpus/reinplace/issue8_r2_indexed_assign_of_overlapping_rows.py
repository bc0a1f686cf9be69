"""Issue #8, r2: `a[0].zero_(); a[idx] = a[1:3].clone()`.  Inductor's joint-graph passes drop the
clone, so an in-place `index_put_` would read rows it writes (eager base: "some elements of the
input and the written-to tensor share memory").  Our pass runs after those passes and sees the
overlap; the rows read are copied first."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(a):
    a[0].zero_()
    a[torch.tensor([3, 1])] = a[1:3].clone()


def inputs():
    return (torch.arange(40.0).reshape(4, 10),)
