"""Integer dtype: compared exactly."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, d):
    x[2:6].add_(d)


def inputs():
    return torch.randint(0, 100, (8,), dtype=torch.int64), torch.randint(0, 5, (4,), dtype=torch.int64)
