"""A while_loop that only reads a captured tensor: nothing to order."""
import torch

EXPECT = """
not fires: while_loop_captured_mutations
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(state):
    def cond(i, acc):
        return i < 3
    def body(i, acc):
        return i + 1, acc + state
    return torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64), torch.zeros_like(state)))


def inputs():
    return (torch.randn(3),)
