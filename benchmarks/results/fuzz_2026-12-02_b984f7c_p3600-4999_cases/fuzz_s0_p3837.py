"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 3600..4999)` (program 3837),
minimized from 5 to 2 statements: both on base eager.

rewrite-eager: differs from eager on call 1: output[0]: not equal at 2 of 4 elements; first at
    [0, 0, 1]: eager -4.0, compiled -3.0
pipeline-eager: differs from eager on call 1: output[0]: not equal at 2 of 4 elements; first at
    [0, 0, 1]: eager -4.0, compiled -3.0
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
    x0[:, :3].mT[torch.tensor([1, 1]), torch.tensor([1, 3])] = -x2[1, 1:3]
    v1 = x1[3:5:2].unsqueeze(0)
    return v1


def inputs():
    base0 = torch.randint(-4, 5, (9, 4)).float()
    return base0[0:5], base0[4:9], torch.randint(-4, 5, (5, 5)).float()
