"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 36), minimized from 3 to 2
statements: both on base eager.

rewrite-eager: differs from eager on call 1: output[0]: not equal at 1 of 1 elements; first at
    [0]: eager -1.0, compiled -3.0
pipeline-eager: differs from eager on call 1: output[0]: not equal at 1 of 1 elements; first at
    [0]: eager -1.0, compiled -3.0
Rules fired: privatize_for_inductor, reinplace_scatter_into_intermediate.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    v1 = x1.diagonal(-1)[1:-1]
    x0.t()[torch.tensor([2]), torch.tensor([2])] = torch.tensor(1.0, dtype=torch.float32)
    return v1


def inputs():
    base0 = torch.randint(-4, 5, (6, 3)).float()
    return base0[0:4], base0[2:6]
