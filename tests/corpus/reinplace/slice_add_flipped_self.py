"""`x[1:].add_(x.flip(0)[1:])`: the slice update's source is computed from a
flipped copy, which does not alias x."""
import torch

EXPECT = """
fires: reinplace_update_into_input
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[1:].add_(x.flip(0)[1:])


def inputs():
    return (torch.randn(5, 3),)
