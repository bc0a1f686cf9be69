"""`torch.slice_scatter(y, y[0:2], 0, 1, 3)` on a matmul result: the source is a view of the
rows it overwrites (rows 0..1 into rows 1..2).  Written in place, row 1 would be overwritten
before it is read, so the scatter stays functional."""
import torch

EXPECT = """
rejects: reinplace_scatter_into_intermediate at safe because operands_overlap_write(slice_scatter) is true
present: aten.slice_scatter
matches_eager
"""
MODE = "inference"
CALLS = 2


def fn(a, b):
    y = a @ b
    return torch.slice_scatter(y, y[0:2], 0, 1, 3).sum(0)


def inputs():
    return torch.randn(6, 6), torch.randn(6, 6)
