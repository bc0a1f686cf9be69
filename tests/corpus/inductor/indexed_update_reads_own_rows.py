"""`t = x * 2; t[idx] = t[src]`: an indexed update of an intermediate whose values are gathered
from the same intermediate.  No reinplacing rule here writes intermediates' indexed updates, but
Inductor's pass does, and its loop would then read rows it has already written (here row 3 is
written before row 1 reads it).  The repair rule computes the gathered values first (two rows),
and Inductor may then write in place."""
import torch

EXPECT = """
fires: materialize_source_for_inductor on inductor
not fires: materialize_source_for_inductor on eager
not fires: privatize_for_inductor
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3


def fn(x, idx, src):
    t = x * 2
    t[idx] = t[src]
    return t


def inputs():
    return torch.arange(12.0).reshape(6, 2), torch.tensor([3, 1]), torch.tensor([2, 3])
