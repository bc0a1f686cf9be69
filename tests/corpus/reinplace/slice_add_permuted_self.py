"""`x[0].add_(x.permute(1, 0)[1])`: the other operand is a permuted view of the
same tensor (column 1 is read while row 0 is written; they share x[0, 1])."""
import torch

EXPECT = """
fires: reinplace_update_into_input
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[0].add_(x.permute(1, 0)[1])


def inputs():
    return (torch.randn(4, 4),)
