"""Inputs passed as a list: mutating `xs[0]` and `xs[1]`."""
import torch

EXPECT = """
fires: reinplace_update_into_input
fires: reinplace_update_into_input
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(xs, idx):
    xs[0][1:3].add_(1.0)
    xs[1][idx] = 0.0


def inputs():
    return [torch.randn(5), torch.randn(6)], torch.tensor([0, 4])
