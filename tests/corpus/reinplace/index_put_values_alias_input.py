"""`x.index_put_((idx,), x[0:3])`: the values are a view of the input being written (eager
refuses the overlap; the reference is the functional meaning).  Stock Inductor writes in place
while the loop still reads the values from x; the rule copies the three values first and then
writes in place."""
import torch

EXPECT = """
fires: reinplace_update_into_input
copies: <= 12 bytes
eager_raises: RuntimeError
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3


def fn(x, idx):
    x.index_put_((idx,), x[0:3])


def reference(x, idx):
    x.index_put_((idx,), x[0:3].clone())


def inputs():
    return torch.arange(8.0), torch.tensor([1, 2, 3])
