"""`y = slice_scatter(x, d, ...); x.copy_(y); return y`: the result equals the updated input, but
in eager it is a tensor of its own.  Stock Inductor's reinplacing writes the scatter into `x` and
returns `x` itself, so a caller that writes into the result changes its argument (found while
fixing `rewrite fuzz --seed 0` programs; stock Inductor and the rules-free eager base both return
the alias).  The legality check refuses rewrites that change which memory an output is, and the
judge of Inductor's reinplacing does too, so the repair rule gives the scatter a private copy."""
import torch

EXPECT = """
not fires: reinplace_update_into_input
fires: privatize_for_inductor
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x, d):
    y = torch.slice_scatter(x, d, 0, 1, 3)
    x.copy_(y)
    return y


def inputs():
    return torch.zeros(5), torch.ones(2)
