"""`x[x < 0] = 0`: an index_put with a boolean mask."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.index_put
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[x < 0] = 0.0


def inputs():
    return (torch.randn(10),)
