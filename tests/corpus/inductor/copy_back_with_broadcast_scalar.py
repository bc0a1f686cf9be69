"""`x.view(3, 5).copy_(x.t().sigmoid() * s.expand(3, 5))`: the broadcast one-element `s` is a load at
a constant index, which Inductor does not count, so the value is not computed first (stock
wrong); realized_before_copy skips tensors of one distinct element."""
import torch

EXPECT = """
fires: materialize_copy_back_source on inductor
not fires: materialize_copy_back_source on eager
matches_eager
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x, s):
    x.view(3, 5).copy_(x.t().sigmoid() * s.expand(3, 5))


def inputs():
    return torch.randint(-4, 5, (5, 3)).float(), torch.full((1, 1), 2.0)
