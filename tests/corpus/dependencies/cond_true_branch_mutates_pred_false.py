"""The same program with a false predicate: the state must stay unchanged."""
import torch

EXPECT = """
fires: cond_captured_mutations
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(pred, x, state):
    def true_fn(x):
        state.add_(x)
        return x * 2
    def false_fn(x):
        return x - 1
    return torch.cond(pred, true_fn, false_fn, (x,))



def inputs():
    return torch.tensor(False), torch.randn(3), torch.randn(3)
