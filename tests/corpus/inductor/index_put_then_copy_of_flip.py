"""`x.index_put_((i,), z); x.copy_(x.flip(0))`: stock Inductor writes the indexed update in
place, and the copy of the flipped x then runs inside the loop that writes x.  Eager and the
rules agree."""
import torch

EXPECT = """
fires: privatize_for_inductor on inductor
not fires: privatize_for_inductor on eager
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3


def fn(x, i, z):
    x.index_put_((i,), z)
    x.copy_(x.flip(0))
    return x


def inputs():
    return torch.rand(16, 8), torch.randperm(16), torch.rand(16, 8)
