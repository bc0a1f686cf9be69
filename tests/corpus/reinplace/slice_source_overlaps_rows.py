"""`x[0:2].copy_(x[1:3])`: the source rows 1..2 overlap the rows 0..1 written (eager: internal-overlap
error).  The rule copies the two source rows first and writes in place; the result is checked
against the functional meaning (the reference clones the source)."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
copies: <= 32 bytes
eager_raises: RuntimeError
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[0:2].copy_(x[1:3])


def reference(x):
    x[0:2].copy_(x[1:3].clone())


def inputs():
    return (torch.arange(16.0).reshape(4, 4),)
