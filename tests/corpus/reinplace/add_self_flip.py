"""`x.add_(x.flip(0))`: flip makes a copy, so eager is well defined."""
import torch

EXPECT = """
not fires: reinplace_update_into_input
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x.add_(x.flip(0))


def inputs():
    return (torch.randn(4, 4),)
