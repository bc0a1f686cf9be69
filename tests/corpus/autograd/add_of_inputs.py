"""`a + b` on graph inputs: an input's buffer is never reused."""
import torch

EXPECT = """
not fires: reinplace_dead_intermediate
matches_eager
"""
MODE = "inference"
CALLS = 2


def fn(a, b):
    return a + b


def inputs():
    return torch.randn(4, 3), torch.randn(4, 3)
