"""Copy-back into a different input, through a view chain: the update goes through `x.t()`, is
transposed back, and the result is copied into `y`, not into `x`.  Nothing writes x, so writing
the update into x would be wrong."""
import torch

EXPECT = """
rejects: reinplace_scatter_into_view_of_input at where because copied_back(
present: aten.select_scatter
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, y, d):
    y.copy_(torch.select_scatter(x.t(), d, 0, 0).t())


def inputs():
    return torch.arange(9.0).reshape(3, 3), torch.zeros(3, 3), torch.ones(3)
