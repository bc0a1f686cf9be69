"""float16 input."""
import torch

EXPECT = """
fires: reinplace_update_into_input
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[1:3].mul_(2)


def inputs():
    return (torch.randn(6, 3).to(torch.float16),)
