"""The issue's variant: cond is false at once, the cond_fn still runs once, state
ends at 0.4."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(state):
    state.mul_(0.8)
    def cond(i, acc):
        state.mul_(0.5)
        return i < 0
    def body(i, acc):
        return i + 1, acc + state
    i, acc = torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64), torch.zeros_like(state)))
    return i, acc, state.clone()



def inputs():
    return (torch.ones(()),)
