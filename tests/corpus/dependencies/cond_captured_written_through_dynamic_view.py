"""A cond branch writes a captured input that was written before through `x0.view(8, 2)` on
dynamic shapes.  After functionalization the captured value's last size is an expression
(`(8//s0**2)*((s1*s0**2)//8)`) that torch cannot prove >= 1, so a contiguous copy of it has
stride `Max(1, size)` and cond refused to merge the branches' results ("cond's output stride is
not a simple accumulative multiplication of sizes"; `rewrite fuzz --seed 0 --n 1500` program
1162).  The branches now return the written operand flat and the copy-back views it as the
operand."""
import torch

EXPECT = """
fires: cond_captured_mutations
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x2):
    x0.view(8, 2).diagonal().masked_fill_(x2[1, 2:4] > 0, 3.0)

    def true_fn(p):
        return p * 2

    def false_fn(p):
        x0[0, 0, 3] = 3.0
        return p.clone()

    return torch.cond(x0.sum() > 0, true_fn, false_fn, (x2,))


def inputs():
    base0 = torch.randint(-4, 5, (4, 2, 4)).float()
    return base0[0:2], torch.randint(-4, 5, (4, 5)).float()
