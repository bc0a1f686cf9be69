"""`a @ b + 2.5`: the other operand is a scalar."""
import torch

EXPECT = """
fires: reinplace_dead_intermediate
matches_eager
"""
MODE = "inference"
CALLS = 2


def fn(a, b):
    return a @ b + 2.5


def inputs():
    return torch.randn(4, 5), torch.randn(5, 3)
