"""`x.diagonal().add_(1)`: a diagonal_scatter into the input."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.diagonal_scatter
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x.diagonal().add_(1.0)


def inputs():
    return (torch.randn(4, 4),)
