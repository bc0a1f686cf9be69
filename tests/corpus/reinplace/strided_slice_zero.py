"""`x[::2].zero_()`: a slice with a step."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[::2].zero_()


def inputs():
    return (torch.randn(9),)
