"""The source is an expand of a row inside the region written; eager copies it
well defined (rows 0 and 1 both become the old row 1)."""
import torch

EXPECT = """
fires: reinplace_update_into_input
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[0:2].copy_(x[1].expand(2, 4))


def inputs():
    return (torch.arange(16.0).reshape(4, 4),)
