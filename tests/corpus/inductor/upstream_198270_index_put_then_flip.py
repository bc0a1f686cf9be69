"""pytorch issue 198270: `x.index_put_((arange,), x * 2.0); x.add_(x.flip(0))`.  Stock Inductor
writes the indexed update into x in place and then fuses the copy-back into x with a read of x
at the flipped positions: wrong at every size on the CPU.  The repair rules see that decision
on a simulated copy of Inductor's pass; copying the update's values alone would not repair it
(the flipped read is the copy-back's), so the update gets a private copy of x."""
import torch

EXPECT = """
not fires: materialize_source_for_inductor
fires: privatize_for_inductor on inductor
not fires: privatize_for_inductor on eager
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x):
    x.index_put_((torch.arange(x.size(0)),), x * 2.0)
    x.add_(x.flip(0))
    return x


def inputs():
    return (torch.arange(32.0).reshape(4, 8) / 8,)
