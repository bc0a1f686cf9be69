"""The written operand is a view at a storage offset (the caller passed `base[-1]`): a branch that
writes it yields a result laid out like the view, the other a fresh copy, and Inductor cannot merge
the two (stock Inductor fails the same way on the rewritten program).  The dependency declines and
the op is left to torch (`rewrite fuzz`, seed 0 program 214)."""
import torch

EXPECT = """
rejects: cond_captured_mutations at rewrite because is a view at storage offset
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    def true_fn(p):
        x1[1, 1] = 3.0
        return p + 1
    def false_fn(p):
        return p * 0
    return torch.cond(x0.sum() > 0, true_fn, false_fn, (x1,))


def inputs():
    base = torch.arange(12.0).reshape(2, 2, 3) - 5
    return base, base[-1]
