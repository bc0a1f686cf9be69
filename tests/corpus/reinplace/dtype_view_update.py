"""A mutation through a dtype view (`x.view(torch.int32)`): the layouts of the
scatter and the input differ."""
import torch

EXPECT = """
not fires: reinplace_update_into_input
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x.view(torch.int32)[1:3].zero_()


def inputs():
    return (torch.randn(6),)
