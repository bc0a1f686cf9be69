"""A row of a matmul result is overwritten before the result is used: the matmul's buffer exists
anyway (an extern kernel writes it), so the update goes straight into it instead of into a clone."""
import torch

EXPECT = """
fires: reinplace_scatter_into_intermediate
absent: aten.select_scatter
matches_eager
inductor
"""
MODE = "inference"
CALLS = 3


def fn(a, b, row):
    y = a @ b
    y[0] = row
    return y.relu()


def inputs():
    return torch.randn(8, 8), torch.randn(8, 8), torch.randn(8)
