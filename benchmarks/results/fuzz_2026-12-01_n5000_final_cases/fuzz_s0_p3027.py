"""Found by `rewrite fuzz --seed 0 --n 5000 --base both` (program 3027), minimized from 4 to 3
statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: input[1]: not equal at 1 of 18 elements; first
    at [0, 0, 0]: eager 1.0, compiled 2.0; input[2]: not equal at 1 of 18 elements; first at [0,
    0, 0]: eager 1.0, compiled 2.0
inductor: differs from eager on call 1: input[1]: not equal at 1 of 18 elements; first at [0, 0,
    0]: eager 1.0, compiled 2.0; input[2]: not equal at 1 of 18 elements; first at [0, 0, 0]:
    eager 1.0, compiled 2.0
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2):
    x2[:2].copy_(x0[:3])
    x1.as_strided((2, 1), (1, 1)).add_(x1[0, :2, 2:3])
    x1[x1 > 0] = 1.0
    return None


def inputs():
    base0 = torch.randint(-4, 5, (2, 3, 3)).float()
    return torch.randint(-4, 5, (4, 3)).float(), base0, base0
