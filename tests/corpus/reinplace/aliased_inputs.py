"""Two inputs that are overlapping views of one tensor: updating one changes the
other, which AOTAutograd handles with a synthetic base."""
import torch

EXPECT = """
fires: reinplace_update_into_input
rejects: reinplace_scatter_into_view_of_input at match
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(a, b):
    a[1:3].add_(1.0)
    return b * 2


def inputs():
    base = torch.randn(10)
    return base[0:6], base[2:8]
