"""Found by `rewrite fuzz --seed 0 --n 3200 --base both` (program 401): both on base eager.

rewrite-eager: differs from eager on call 1: output[0]: not equal at 12 of 12 elements; first at
    [0, 0, 0]: eager 2.5, compiled 4.0
pipeline-eager: differs from eager on call 1: output[0]: not equal at 12 of 12 elements; first
    at [0, 0, 0]: eager 2.5, compiled 4.0
Rules fired: reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x1, x2, x3):
    x3[:, 1:2:2].fill_(2.0)
    x2[3:-1].copy_(x1[1, :1])
    x1.add_(0.5)
    return x1


def inputs():
    base0 = torch.randint(-4, 5, (4, 2, 3)).float()
    base1 = torch.randint(-4, 5, (5, 3)).float()
    return base0[2:], base1, base1.t()
