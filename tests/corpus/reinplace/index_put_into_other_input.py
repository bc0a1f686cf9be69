"""An index_put of `a` whose result is copied into `b`."""
import torch

EXPECT = """
rejects: reinplace_update_into_input at where
not fires: reinplace_update_into_input
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(a, b, idx, v):
    b.copy_(a.index_put((idx,), v))


def inputs():
    return torch.randn(8), torch.randn(8), torch.tensor([1, 4, 6]), torch.randn(3)
