"""The overlapping shift with dynamic shapes: whatever the rules do, the result must
be the shift by one (the functional meaning)."""
import torch

EXPECT = """
fires: reinplace_scatter_into_input
eager_raises: RuntimeError
matches_eager exact
"""
MODE = "inference"
CALLS = 2
DYNAMIC = True


def fn(x):
    x[1:] = x[:-1]


def reference(x):
    x[1:] = x[:-1].clone()


def inputs():
    return (torch.arange(9.0),)
