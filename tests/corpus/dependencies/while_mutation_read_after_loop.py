"""The captured tensor is mutated by the loop and read (and mutated again) after it:
the read must see the loop's writes."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(state, x):
    def cond(i, acc):
        return i < 2
    def body(i, acc):
        state.mul_(2.0)
        return i + 1, acc + 1
    i, acc = torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64), torch.zeros_like(x)))
    out = state + acc
    state.sub_(1.0)
    return out



def inputs():
    return torch.randn(3), torch.randn(3)
