"""`x.add_(x.t())`: the other operand is a transposed view of the mutated tensor.
Eager refuses; the compiled graph means `x = x + x.t()`."""
import torch

EXPECT = """
not fires: reinplace_update_into_input
not fires: reinplace_update_into_input
eager_raises: RuntimeError
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x.add_(x.t())


def reference(x):
    x.copy_(x + x.t())


def inputs():
    return (torch.randn(4, 4),)
