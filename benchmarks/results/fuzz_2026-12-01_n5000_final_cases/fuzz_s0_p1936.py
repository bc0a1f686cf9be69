"""Found by `rewrite fuzz --seed 0 --n 5000 --base both` (program 1936), minimized from 7 to 2
statements: both on base eager.

rewrite-eager: differs from eager on call 1: output[0]: not equal at 1 of 1 elements; first at
    [0]: eager 2.0, compiled -4.0
pipeline-eager: differs from eager on call 1: output[0]: not equal at 1 of 1 elements; first at
    [0]: eager 2.0, compiled -4.0
Rules fired: reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2):
    x0[:-1:2].copy_(x2[0, 1:3])
    o3 = x1[2:3]
    return o3


def inputs():
    base0 = torch.randint(-4, 5, (7,)).float()
    return base0[0:4], base0[3:7], torch.randint(-4, 5, (3, 5)).float()
