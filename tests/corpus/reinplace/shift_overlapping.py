"""`x[1:] = x[:-1]`: source and destination overlap.  Eager refuses (internal overlap); the
functional graph means "shift by one", and a scatter written in place with a source read lazily
from x would smear x[0] over the whole tensor (the Inductor run checks this end to end), so the
rule refuses at `safe`.  The reference is the functional meaning."""
import torch

EXPECT = """
rejects: reinplace_scatter_into_input at safe because operands_overlap_write(slice_scatter) is true
present: aten.slice_scatter
eager_raises: RuntimeError
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 2


def fn(x):
    x[1:] = x[:-1]


def reference(x):
    x[1:] = x[:-1].clone()


def inputs():
    return (torch.arange(8.0),)
