"""The overlapping shift with dynamic shapes: the overlap of `x[:-1]` and `x[1:]` is decided on
symbolic sizes.  The rule writes the shift in place after copying the source region (`x[:-1]`,
symbolic size, never specialized), so the result is the shift by one."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
present: rewrite.materialized_copy count=1
eager_raises: RuntimeError
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = True


def fn(x):
    x[1:] = x[:-1]


def reference(x):
    x[1:] = x[:-1].clone()


def inputs():
    return (torch.arange(9.0),)
