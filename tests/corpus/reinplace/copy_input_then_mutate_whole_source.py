"""`a.copy_(b)` then `b.mul_(2)`: two copy-backs; a must see b's old value."""
import torch

EXPECT = """
not fires: reinplace_update_into_input
present: aten.copy_ count=2
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(a, b):
    a.copy_(b)
    b.mul_(2.0)


def inputs():
    return torch.randn(6), torch.randn(6)
