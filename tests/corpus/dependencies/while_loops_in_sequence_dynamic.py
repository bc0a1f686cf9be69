"""The two loops sharing state, with dynamic shapes: the dependencies evaluate on symbolic
sizes (before, the `where` failed on a storage key comparison and the mutation was lost)."""
import torch

EXPECT = """
fires: while_loop_captured_mutations count=2
matches_eager
"""
MODE = "inference"
CALLS = 3
DYNAMIC = True


def fn(state):
    def cond1(i):
        state.mul_(0.5)
        return i < 2

    def body(i):
        return (i + 1,)

    torch.while_loop(cond1, body, (torch.zeros((), dtype=torch.int64),))

    def cond2(i):
        state.mul_(0.5)
        return i < 1

    torch.while_loop(cond2, body, (torch.zeros((), dtype=torch.int64),))
    return state.clone()


def inputs():
    return (torch.ones(5),)
