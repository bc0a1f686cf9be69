"""`exp(a @ b) + c` in inference: nothing is saved for backward, but exp's
output is not materialized (it fuses), so reusing it is not profitable."""
import torch

EXPECT = """
rejects: reinplace_dead_intermediate at profitable because realized(exp) is false
matches_eager
"""
MODE = "inference"
CALLS = 2


def fn(a, b, c):
    return torch.exp(a @ b) + c


def inputs():
    return torch.randn(4, 5), torch.randn(5, 3), torch.randn(4, 3)
