"""A mismatched view chain: the update goes through the transposed view `x.t()` but the result
is copied back into x without transposing it back.  No view undoes the first one, so the rule
for updates through a view does not apply and the scatter stays functional."""
import torch

EXPECT = """
rejects: reinplace_scatter_into_view_of_input at match because has no step
present: aten.select_scatter
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    x.copy_(torch.select_scatter(x.t(), d, 0, 1))


def inputs():
    return torch.arange(9.0).reshape(3, 3), torch.ones(3)
