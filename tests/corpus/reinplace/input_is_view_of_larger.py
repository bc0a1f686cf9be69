"""The input is a view (`base[2:10]`) of a larger tensor; the update must only
touch the view's part of the base."""
import torch

EXPECT = """
fires: reinplace_update_into_input
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    x[1:-1].add_(d)


def inputs():
    base = torch.randn(12)
    return base[2:10], torch.randn(6)
