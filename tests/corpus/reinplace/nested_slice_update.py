"""A slice of a slice: `x[1:7][2:4].mul_(3)`."""
import torch

EXPECT = """
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[1:7][2:4].mul_(3.0)


def inputs():
    return (torch.randn(8),)
