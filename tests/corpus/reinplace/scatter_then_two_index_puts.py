"""A slice update followed by two indexed updates: the path has two steps."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
absent: aten.index_put
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, d, i1, v1, i2, v2):
    x[1:-1].add_(d)
    x[i1] = v1
    x.index_put_((i2,), v2, accumulate=True)


def inputs():
    return (torch.randn(9), torch.randn(7), torch.tensor([0, 4]), torch.randn(2),
            torch.tensor([2, 2, 8]), torch.randn(3))
