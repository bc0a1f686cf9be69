"""An index update followed by a read of the updated input."""
import torch

EXPECT = """
fires: reinplace_update_into_input
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, idx, v):
    x[idx] = v
    return x * 2


def inputs():
    return torch.randn(8), torch.tensor([3, 1]), torch.randn(2)
