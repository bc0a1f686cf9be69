"""`x[0:2].copy_(x[1:3].clone())` is well defined; without the clone the source
`x[1:3]` overlaps rows 0..1 (eager: internal-overlap error), checked through the
reference."""
import torch

EXPECT = """
fires: reinplace_scatter_into_input
eager_raises: RuntimeError
matches_eager exact
"""
MODE = "inference"
CALLS = 2


def fn(x):
    x[0:2].copy_(x[1:3])


def reference(x):
    x[0:2].copy_(x[1:3].clone())


def inputs():
    return (torch.arange(16.0).reshape(4, 4),)
