"""`torch.slice_scatter(y, y[0:2], 0, 4, 6)` on a matmul result: the source rows (0..1) and the
rows written (4..5) are disjoint, so writing in place reads nothing it has overwritten."""
import torch

EXPECT = """
fires: reinplace_scatter_into_intermediate
absent: aten.slice_scatter
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(a, b):
    y = a @ b
    return torch.slice_scatter(y, y[0:2], 0, 4, 6).sum(0)


def inputs():
    return torch.randn(6, 6), torch.randn(6, 6)
