"""The composed update from the issue: a slice add, then an index_copy_ of values read
from the updated field.  The index_put consumes the scatter, so the path runs
slice_scatter -> index_put -> copy_ and the whole chain is written into `field`."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
absent: aten.index_put
matches_eager
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def composed(field, delta, indices, gain):
    field[1:-1].add_(delta)
    values = torch.index_select(field, 0, indices) * gain
    field.index_copy_(0, indices, values)


fn = composed


def inputs():
    return torch.randn(10, 4), torch.randn(8, 4), torch.tensor([0, 3, 7]), torch.randn(3, 4)
