"""`a.copy_(b)` then `b[1:].add_(1)`: a must get b's value from before the update.
The functional `copy` that carries b's old value into a is computed before the
scatter; it must survive when the scatter is written into b."""
import torch

EXPECT = """
fires: reinplace_scatter_into_input
present: aten.copy count=1
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(a, b):
    a.copy_(b)
    b[1:].add_(1.0)


def inputs():
    return torch.randn(6), torch.randn(6)
