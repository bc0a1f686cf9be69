"""Two `while_loop`s in sequence whose `cond_fn`s both halve the same captured tensor.  Each
loop's dependency threads the state on its own; the second loop sees what the first left.  With
dynamic shapes the dependencies evaluate on symbolic sizes (issue 8: the `where` once failed on a
storage key comparison, "'tuple' object has no attribute 'cdata'", and the mutation was lost)."""
import torch

EXPECT = """
fires: while_loop_captured_mutations count=2
matches_eager
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


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
