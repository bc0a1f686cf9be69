"""A strided input written through a transposed column and a column slice, with values read
from it before its copy-back and returned.  Stock Inductor's copy-back loop computes its value
lazily and reads the input at other positions than it writes (wrong in stock; `rewrite fuzz
--seed 0 --n 1500` program 261, minimized).  The rule copies what is read first, also the
value read before the copy-back and consumed after it, which the legality check's conservative
model (it does not count on Inductor realizing readers of a mutated buffer) asks for."""
import torch

EXPECT = """
fires: materialize_copy_back_source on inductor
not fires: materialize_copy_back_source on eager
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    x0.copy_(x1[2])
    x1.zero_()
    v1 = x0[::2]
    x1[:, 1:4:2][:, 1] = x0
    x1.t()[:, -2].add_(x1[2] + -2)
    return v1 + x0[:2]


def inputs():
    base0 = torch.randint(-4, 5, (4, 8)).float()
    return torch.randint(-4, 5, (4,)).float(), base0[:, ::2]
