"""Found by `rewrite fuzz --seed 0 --n 5000 --base both` (program 1727), minimized from 7 to 2
statements: both on base eager.

rewrite-eager: differs from eager on call 1: output[0]: not equal at 4 of 4 elements; first at
    [0]: eager 4.0, compiled 2.0
pipeline-eager: differs from eager on call 1: output[0]: not equal at 4 of 4 elements; first at
    [0]: eager 4.0, compiled 2.0
Rules fired: reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "training"
CALLS = 3
DYNAMIC = False


def fn(x1, x2):
    x1[:, 2:4:2] = x2.t()[:, :1]
    v4 = x1[-4]
    return v4


def inputs():
    base0 = torch.randint(-4, 5, (7, 4)).float()
    return base0[0:4], base0[3:7]
