"""Both branches mutate the captured tensor, differently; read after the cond."""
import torch

EXPECT = """
fires: cond_captured_mutations
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(x, state):
    def true_fn(x):
        state.mul_(2.0)
        return x + 1
    def false_fn(x):
        state.sub_(1.0)
        return x - 1
    y = torch.cond(x.sum() > 0, true_fn, false_fn, (x,))
    return y + state



def inputs():
    return torch.randn(4), torch.randn(4)
