"""Update through a transposed view: `x.t()[1].add_(d)` writes column 1."""
import torch

EXPECT = """
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    x.t()[1].add_(d)


def inputs():
    return torch.randn(4, 3), torch.randn(4)
