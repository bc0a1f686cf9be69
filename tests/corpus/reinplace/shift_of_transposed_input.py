"""`x[1:] = x[:-1].clone()` (issue 197829) on a transposed (non-contiguous) input: the scatter is
written through the transposed layout in place after the source rows are copied (the user's
clone survives here, as a layout change, so two more copies of the source rows remain: 3 x 48
bytes, less than the 64-byte input each)."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
copies: <= 144 bytes
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x):
    x[1:] = x[:-1].clone()


def inputs():
    return (torch.arange(16.0).reshape(4, 4).t(),)
