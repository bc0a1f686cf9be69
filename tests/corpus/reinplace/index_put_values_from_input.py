"""`x[idx] = x[idx] * 2`: the values are read from the input before the update."""
import torch

EXPECT = """
fires: reinplace_update_into_input
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, idx):
    x[idx] = x[idx] * 2


def inputs():
    return torch.randn(8), torch.tensor([0, 2, 5])
