"""Only the body mutates the captured tensor."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(state):
    def cond(i, acc):
        return i < 3
    def body(i, acc):
        state.add_(1.0)
        return i + 1, acc + state
    i, acc = torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64), torch.zeros_like(state)))
    return i, acc



def inputs():
    return (torch.randn(3),)
