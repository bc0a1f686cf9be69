"""The operand is a view of a captured tensor that a branch writes: inside the rewritten branch the
view is taken again from the private copy, so it reads the write (found by `rewrite fuzz`, seed 0
program 38)."""
import torch

EXPECT = """
fires: cond_captured_mutations
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    v1 = x0.unsqueeze(0).view(-1)
    def true_fn(p):
        return p + 1
    def false_fn(p):
        x0[0] = 3.0
        return p - 1
    return torch.cond(x0.sum() > 0, true_fn, false_fn, (v1,))


def inputs():
    return (torch.tensor([-3.0, 1.0, 0.0, 1.0]),)
