"""A diagonal filled where a row slice is positive, on dynamic shapes: the mask (`x[2, :3]`,
3 elements) and the diagonal (`Min(s0, s1 - 1)` elements) only broadcast because Dynamo guarded
the two sizes equal.  The judge of Inductor's reinplacing must take the guard as known (the
copy Inductor writes is no conversion), or it calls its decision unsafe and no repair can
change its mind (`rewrite fuzz --seed 0` program 130 stopped with "stays unsafe after
repairs")."""
import torch

EXPECT = """
fires: reinplace_update_into_input
not fires: privatize_for_inductor
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x):
    x.diagonal(1).masked_fill_(x[2, :3] > 0, 2)


def inputs():
    return (torch.randint(-4, 5, (3, 4)),)
