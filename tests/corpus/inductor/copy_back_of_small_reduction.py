"""`x.view(3, 5).copy_(x.t().unsqueeze(-1).sum(-1).sigmoid())`: a reduction over one element is
a pointwise loop body for Inductor (`Reduction.create` unrolls reductions below
`unroll_reductions_threshold`), not a buffer, so the copy loop reads the input transposed (stock
wrong).  The stock model counts only larger reductions as buffered."""
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


def fn(x):
    x.view(3, 5).copy_(x.t().unsqueeze(-1).sum(-1).sigmoid())


def inputs():
    return (torch.randint(-4, 5, (5, 3)).float(),)
