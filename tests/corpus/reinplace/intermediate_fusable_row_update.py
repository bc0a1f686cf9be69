"""A row of a pointwise intermediate is overwritten: not worth writing in place, since the
scheduler computes the product and the update in one fused kernel without materializing either."""
import torch

EXPECT = """
rejects: reinplace_scatter_into_intermediate at profitable because realized(mul) is false
present: aten.select_scatter
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(a, row):
    y = a * 2
    y[0] = row
    return y.relu()


def inputs():
    return torch.randn(8, 8), torch.randn(8)
