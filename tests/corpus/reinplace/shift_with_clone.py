"""`x[1:].copy_(x[:-1].clone())`: the source is a copy, so the shift is well
defined in eager; after the rules the clone must survive (its source overlaps the
region written)."""
import torch

EXPECT = """
fires: reinplace_scatter_into_input
present: aten.clone
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[1:].copy_(x[:-1].clone())


def inputs():
    return (torch.arange(8.0),)
