"""`x[1:].copy_(x[:-1].clone())` (pytorch issue 197829): well defined in eager.  Inductor's
joint-graph passes drop the clone (functionally it changes nothing), so the scatter's source is a
view of x overlapping the region written; in place as it is, x[0] would be smeared over the
tensor, which is what stock Inductor compiles.  The rule copies the 7 source elements (not the
8-element input) and writes in place."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
copies: <= 28 bytes
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x):
    x[1:].copy_(x[:-1].clone())


def inputs():
    return (torch.arange(8.0),)
