"""A `cond` branch writes the captured input `x0`, which the program wrote before the `cond` through
a transposed view (`x0.transpose(0, 1)[:, 2:-1].index_copy_(...)`; `rewrite fuzz --seed 0` program
2790, minimized).  Rewritten, the `cond` would take `x0`'s new value as an operand, which Inductor
lays out as the transposed write left it while it compiled the branches for `x0`'s own strides:
the branch's input check failed, where stock Inductor is right.  The dependency now leaves a
written operand to the compiler when a write before the `cond` went through a view whose
dimensions are not in the operand's stride order (the class of p1232, which was a `copy_` from
such a view)."""
import torch

EXPECT = """
rejects: cond_captured_mutations at rewrite because another order
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    v1 = x0.transpose(0, 1)
    v1[:, 2:-1].index_copy_(1, torch.tensor([0]), v1[:, 3:4])

    def true_fn(p):
        return p + 1

    def false_fn(p):
        x0[:, 3:5].add_(1.0)
        return p - 1

    torch.cond(x1.sum() > 0, true_fn, false_fn, (x1,))


def inputs():
    return torch.randint(-4, 5, (4, 5)).float(), torch.randint(-4, 5, (4, 4)).float()
