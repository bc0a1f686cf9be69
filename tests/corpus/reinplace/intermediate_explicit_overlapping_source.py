"""`torch.slice_scatter(y, y[0:2], 0, 1, 3)` on a matmul result: the source is a view of the
rows it overwrites (rows 0..1 into rows 1..2).  The rule copies the two source rows (48 bytes,
not the 144-byte matmul result) and then writes them into y in place."""
import torch

EXPECT = """
fires: reinplace_scatter_into_intermediate
absent: aten.slice_scatter
copies: <= 48 bytes
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(a, b):
    y = a @ b
    return torch.slice_scatter(y, y[0:2], 0, 1, 3).sum(0)


def inputs():
    return torch.randn(6, 6), torch.randn(6, 6)
