"""A while_loop mutating a captured int counter tensor (exact comparison)."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(counter, x):
    def cond(i, acc):
        counter.add_(1)
        return i < 4
    def body(i, acc):
        return i + 1, acc * 2
    return torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64), x.clone()))



def inputs():
    return torch.zeros(2, dtype=torch.int64), torch.randint(0, 9, (3,))
