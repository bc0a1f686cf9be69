"""`x.index_put_((idx,), x[0:3])`: the values are a view of the input being
written.  Eager refuses the overlap; the reference is the functional meaning."""
import torch

EXPECT = """
not fires: reinplace_indexed_update_into_input
eager_raises: RuntimeError
matches_eager exact
"""
MODE = "inference"
CALLS = 2


def fn(x, idx):
    x.index_put_((idx,), x[0:3])


def reference(x, idx):
    x.index_put_((idx,), x[0:3].clone())


def inputs():
    return torch.arange(8.0), torch.tensor([1, 2, 3])
