"""A whole-tensor `add_` between the slice update and the indexed update: `add` is
not an indexed update, so the path stops at the scatter, which is not what gets
copied back."""
import torch

EXPECT = """
rejects: reinplace_update_into_input at where
not fires: reinplace_update_into_input
not fires: reinplace_update_into_input
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, d, idx, v):
    x[1:-1].add_(d)
    x.add_(1.0)
    x[idx] = v


def inputs():
    return torch.randn(8), torch.randn(6), torch.tensor([0, 5]), torch.randn(2)
