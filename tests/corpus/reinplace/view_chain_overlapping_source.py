"""An update through the transposed view whose source is a row of x itself: column 0 of x is
overwritten with row 0 of x, and the two share x[0, 0].  Written in place, the source would be
read after part of it is overwritten, so the scatter stays functional."""
import torch

EXPECT = """
rejects: reinplace_scatter_into_view_of_input at safe because operands_overlap_write(select_scatter) is true
present: aten.select_scatter
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x.copy_(torch.select_scatter(x.t(), x[0], 0, 0).t())


def inputs():
    return (torch.arange(9.0).reshape(3, 3),)
