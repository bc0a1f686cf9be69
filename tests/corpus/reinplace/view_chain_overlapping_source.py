"""An update through the transposed view whose source is a row of x itself: column 0 of x is
overwritten with row 0 of x, and the two share x[0, 0].  The rule copies the source row (3
elements) and writes it through the view in place; stock Inductor keeps two full copies."""
import torch

EXPECT = """
fires: reinplace_scatter_into_view_of_input
absent: aten.select_scatter
copies: <= 12 bytes
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x.copy_(torch.select_scatter(x.t(), x[0], 0, 0).t())


def inputs():
    return (torch.arange(9.0).reshape(3, 3),)
