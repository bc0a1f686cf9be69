"""`x.view(3, 5).copy_(x.t().sigmoid() + x.t().cos())`: two reads of the same transposed view are one
load for Inductor (it merges equal loads), so it does not compute the value first and its copy
loop reads elements it overwrote (stock wrong).  realized_before_copy counts distinct regions,
not nodes, and the rule copies what is read.  (Found by review; transcendental ops: compared
with tolerance.)"""
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
    x.view(3, 5).copy_(x.t().sigmoid() + x.t().cos())


def inputs():
    return (torch.randint(-4, 5, (5, 3)).float(),)
