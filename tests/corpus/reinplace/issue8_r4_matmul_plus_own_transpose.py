"""Issue #8, r4: `t = x @ w; return t + t.t() * -1.0` crashed Inductor (KeyError: 'op1') after a
rule wrote the sum into the matmul's buffer while the same loop read its transpose.  No rule may
write there (the add reads `t` at transposed positions), and none does; the program compiles
and matches eager."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x, w):
    t = x @ w
    return t + t.t() * -1.0


def inputs():
    return torch.arange(16.0).reshape(4, 4), torch.eye(4)
