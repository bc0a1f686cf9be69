"""Several captured tensors: two are mutated (one by cond, one by body), one is
only read."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager
"""
MODE = "inference"
CALLS = 3


def fn(a, b, c):
    def cond(i, acc):
        a.add_(1.0)
        return i < 3
    def body(i, acc):
        b.mul_(c)
        return i + 1, acc + a + b
    i, acc = torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64), torch.zeros_like(a)))
    return i, acc



def inputs():
    return torch.randn(3), torch.randn(3), torch.rand(3) + 0.5
