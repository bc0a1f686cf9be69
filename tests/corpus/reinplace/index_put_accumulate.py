"""`index_put_(..., accumulate=True)` with repeated indices."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.index_put
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, idx, v):
    x.index_put_((idx,), v, accumulate=True)


def inputs():
    return torch.randn(6), torch.tensor([1, 1, 4, 1]), torch.randn(4)
