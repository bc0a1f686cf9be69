"""`x.index_copy_(0, idx, v)`."""
import torch

EXPECT = """
fires: reinplace_update_into_input
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, idx, v):
    x.index_copy_(0, idx, v)


def inputs():
    return torch.randn(7, 2), torch.tensor([6, 0, 3]), torch.randn(3, 2)
