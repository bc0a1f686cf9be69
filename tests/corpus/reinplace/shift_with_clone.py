"""`x[1:].copy_(x[:-1].clone())`: well defined in eager.  Inductor's joint-graph passes drop the
clone (functionally it changes nothing), so the scatter's source is a view of x overlapping the
region written; in place, x[0] would be smeared over the tensor.  The rule refuses at `safe`."""
import torch

EXPECT = """
rejects: reinplace_scatter_into_input at safe because operands_overlap_write(slice_scatter) is true
present: aten.slice_scatter
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[1:].copy_(x[:-1].clone())


def inputs():
    return (torch.arange(8.0),)
