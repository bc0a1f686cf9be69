"""The input's old value is read after the scatter is computed and before it is copied back
(`out = x * 2` sits between them in the graph).  Writing the scatter into x early would make
`out` see the new values."""
import torch

EXPECT = """
rejects: reinplace_update_into_input at safe because alias_used_between
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    updated = torch.slice_scatter(x, d, 0, 1, 3)
    out = x * 2
    x.copy_(updated)
    return out


def inputs():
    return torch.randn(6), torch.randn(2)
