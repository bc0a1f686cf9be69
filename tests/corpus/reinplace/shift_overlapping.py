"""`x[1:] = x[:-1]`: source and destination overlap.  Eager refuses (internal overlap); the
functional graph means "shift by one".  A scatter written in place with its source read lazily
from x would smear x[0] over the whole tensor (stock Inductor's own reinplacing does exactly
that, pytorch issue 197829), so the rule copies the source region first (28 bytes) and then
writes in place; the Inductor run checks the result end to end.  The reference is the
functional meaning."""
import torch

EXPECT = """
fires: reinplace_update_into_input
absent: aten.slice_scatter
copies: <= 28 bytes
eager_raises: RuntimeError
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x):
    x[1:] = x[:-1]


def reference(x):
    x[1:] = x[:-1].clone()


def inputs():
    return (torch.arange(8.0),)
