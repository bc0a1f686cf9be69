"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 446): both on base inductor.

rewrite-inductor: differs from eager on call 1: output[0]: not equal at 3 of 16 elements; first
    at [1, 1, 1]: eager 2.0, compiled -2.0; input[0]: not equal at 3 of 16 elements; first at
    [1, 1, 1]: eager 2.0, compiled -2.0; input[0]._base: not equal at 6 of 24 elements; first at
    [1, 1, 1]: eager 2.0, compiled -2.0; input[1]: not equal at 6 of 16 elements; first at [0,
    1, 1]: eager 2.0, compiled -2.0; input[1]._base: not equal at 6 of 24 elements; first at [1,
    1, 1]: eager 2.0, compiled -2.0
inductor: differs from eager on call 1: output[0]: not equal at 3 of 16 elements; first at [1,
    1, 1]: eager 2.0, compiled -2.0; input[0]: not equal at 3 of 16 elements; first at [1, 1,
    1]: eager 2.0, compiled -2.0; input[0]._base: not equal at 6 of 24 elements; first at [1, 1,
    1]: eager 2.0, compiled -2.0; input[1]: not equal at 6 of 16 elements; first at [0, 1, 1]:
    eager 2.0, compiled -2.0; input[1]._base: not equal at 6 of 24 elements; first at [1, 1, 1]:
    eager 2.0, compiled -2.0
Rules fired: privatize_for_inductor.
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x1, x2):
    x1[:1][:, -2].add_(-2.0)
    x2.mul_(x2.flip(1).clamp(-2, 2))
    return x1


def inputs():
    base0 = torch.randint(-4, 5, (3, 2, 4)).float()
    return base0[0:2], base0[1:3]
