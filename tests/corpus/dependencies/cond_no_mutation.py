"""A cond whose branches only read a captured tensor."""
import torch

EXPECT = """
not fires: cond_captured_mutations
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, state):
    def true_fn(x):
        return x + state
    def false_fn(x):
        return x - state
    return torch.cond(x.sum() > 0, true_fn, false_fn, (x,))


def inputs():
    return torch.randn(4), torch.randn(4)
