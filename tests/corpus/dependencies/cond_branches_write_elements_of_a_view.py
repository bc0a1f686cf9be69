"""A `cond` whose branches each write one element of a view `v = base[2:6]` captured with its
base: the two operands alias.  Only the base gets a private copy (and is copied back); the view
is taken again from that copy inside each branch, so the cond's operands no longer alias."""
import torch

EXPECT = """
fires: cond_captured_mutations
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(base):
    v = base[2:6]

    def true_fn(a):
        v[1] = 5.0
        return a.clone()

    def false_fn(a):
        v[3] = 7.0
        return a.clone()

    return torch.cond(base.sum() > 0, true_fn, false_fn, (base,))


def inputs():
    return (torch.arange(8.0),)
