"""A clone of part of the input is taken before the mutation and read after it;
the clone must keep the old values."""
import torch

EXPECT = """
not fires: reinplace_update_into_input
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    old = x[2:5].clone()
    x[1:-1].add_(d)
    return old * 3


def inputs():
    return torch.randn(8), torch.randn(6)
