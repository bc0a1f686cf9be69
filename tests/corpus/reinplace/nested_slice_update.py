"""A slice of a slice: `x[1:7][2:4].mul_(3)`."""
import torch

EXPECT = """
fires: reinplace_update_into_input count=1
rejects: reinplace_scatter_into_intermediate at where because is_view(slice_3) is true
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[1:7][2:4].mul_(3.0)


def inputs():
    return (torch.randn(8),)
