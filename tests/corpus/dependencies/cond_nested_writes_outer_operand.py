"""A `cond` inside a branch writes a tensor that the outer `cond` receives as an operand: the inner
op is rewritten first, then the outer one carries the write out (`rewrite fuzz`, seed 0 program 50)."""
import torch

EXPECT = """
fires: cond_captured_mutations count=2
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    def true_fn(p):
        def inner_true(q):
            x1[1] = 1.0
            return q + 1
        def inner_false(q):
            return q - 1
        torch.cond(x0.sum() > 0, inner_true, inner_false, (x1,))
        return p * 2
    def false_fn(p):
        return p * 0
    return torch.cond(x1.sum() > 0, true_fn, false_fn, (x0,))


def inputs():
    return torch.ones(4, 3), torch.tensor([1.0, -2.0, 3.0, 0.0, 2.0, -1.0])
