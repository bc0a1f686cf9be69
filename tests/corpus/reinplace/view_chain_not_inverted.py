"""A mismatched view chain: the update goes through `x.permute(1, 2, 0)` and the result is
permuted by the same `(1, 2, 0)` again before it is copied back.  That second permute is not the
inverse of the first, so writing through the view into x would put the values in the wrong
places: the scatter stays functional."""
import torch

EXPECT = """
rejects: reinplace_scatter_into_view_of_input at match because undoes_view(permute_1, permute) is false
present: aten.select_scatter
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    updated = torch.select_scatter(x.permute(1, 2, 0), d, 0, 0)
    x.copy_(updated.permute(1, 2, 0))


def inputs():
    return torch.arange(8.0).reshape(2, 2, 2), torch.ones(2, 2)
