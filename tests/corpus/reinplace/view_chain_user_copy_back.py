"""`x.copy_(torch.select_scatter(x.t(), d, 0, 1).t())`: user code that updates a transposed view
functionally, transposes back and copies the result into x.  The view chain is restored before
the copy, so the update is written through the view into x: no scatter, no copy of x."""
import torch

EXPECT = """
fires: reinplace_scatter_into_view_of_input
absent: aten.select_scatter
absent: aten.copy
present: aten.permute count=1
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    x.copy_(torch.select_scatter(x.t(), d, 0, 1).t())


def inputs():
    return torch.arange(12.0).reshape(3, 4), torch.ones(3)
