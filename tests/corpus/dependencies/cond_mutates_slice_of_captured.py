"""A branch writes a slice of the captured tensor."""
import torch

EXPECT = """
fires: cond_captured_mutations
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, state):
    def true_fn(x):
        state[1:3].add_(1.0)
        return x.clone()
    def false_fn(x):
        return x * 0
    return torch.cond(x.sum() > 0, true_fn, false_fn, (x,))



def inputs():
    return torch.rand(4), torch.randn(5)
