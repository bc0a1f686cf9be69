"""The overlapping shift with dynamic shapes: the overlap of `x[:-1]` and `x[1:]` is decided on
symbolic sizes, the rule refuses at `safe`, and the result is the shift by one."""
import torch

EXPECT = """
rejects: reinplace_scatter_into_input at safe because operands_overlap_write(slice_scatter) is true
present: aten.slice_scatter
eager_raises: RuntimeError
matches_eager exact
"""
MODE = "inference"
CALLS = 2
DYNAMIC = True


def fn(x):
    x[1:] = x[:-1]


def reference(x):
    x[1:] = x[:-1].clone()


def inputs():
    return (torch.arange(9.0),)
