"""The scatter's base is `a`, but its value is copied into `b`: writing into `a`
would change an input that must stay as it was."""
import torch

EXPECT = """
rejects: reinplace_update_into_input at where
not fires: reinplace_update_into_input
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(a, b, d):
    b.copy_(torch.slice_scatter(a, a[1:-1] + d, 0, 1, -1))


def inputs():
    return torch.randn(8), torch.randn(8), torch.randn(6)
