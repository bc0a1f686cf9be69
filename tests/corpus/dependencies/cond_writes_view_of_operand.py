"""A branch writes a row view of the operand: the write lands in the operand's private copy and the
whole operand is copied back (`rewrite fuzz`, seed 0 program 48)."""
import torch

EXPECT = """
fires: cond_captured_mutations
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x2):
    o1 = x2[2]
    def true_fn(p):
        return p + 1
    def false_fn(p):
        o1[2] = 2.0
        return p * 0
    return torch.cond(x2.sum() > 0, true_fn, false_fn, (x2,))


def inputs():
    return (torch.tensor([[1.0, -2.0, 0.0], [0.0, -1.0, 0.0], [-3.0, 1.0, -1.0], [2.0, -4.0, 1.0]]),)
