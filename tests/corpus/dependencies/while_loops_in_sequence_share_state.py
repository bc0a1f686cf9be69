"""Two `while_loop`s in sequence whose `cond_fn`s both halve the same captured tensor.  Each
loop's dependency threads the state on its own; the second loop sees what the first left."""
import torch

EXPECT = """
fires: while_loop_captured_mutations count=2
matches_eager
"""
MODE = "inference"
CALLS = 3


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
    return (torch.ones(4),)
