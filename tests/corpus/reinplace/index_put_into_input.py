"""`x[idx] = v` on an input: an index_put copied straight back."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.index_put
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3


def fn(x, idx, v):
    x[idx] = v


def inputs():
    return torch.randn(8, 3), torch.tensor([1, 6]), torch.randn(2, 3)
