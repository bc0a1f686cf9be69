"""`x.view(3, 5).copy_(x.t().sigmoid())`: the copy-back into the input computes its value lazily
in the same loop, and the value reads the input transposed, at elements the loop has already
overwritten.  Stock Inductor fuses them and is wrong (`rewrite fuzz --seed 0 --n 1500` programs
190, 261, 665, 1473, "both" before this rule); Inductor computes a value first only when it
loads from more than one place (`realize_hint`), this one loads once, so the rule materializes
it."""
import torch

EXPECT = """
fires: materialize_copy_back_source on inductor
not fires: materialize_copy_back_source on eager
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    x0.view(3, 5).copy_(x0.t().sigmoid())


def inputs():
    return (torch.randint(-4, 5, (5, 3)).float(),)
