"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 2914..4999)` (program 3508),
minimized from 7 to 4 statements: both on base eager.

rewrite-eager: raised on call 1: IndexError: Dimension out of range (expected to be in range of
    [-1, 0], but got 1)
pipeline-eager: raised on call 1: IndexError: Dimension out of range (expected to be in range of
    [-1, 0], but got 1)
Rules fired: reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "training"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2, x3, w4):
    t2 = w4 - w4
    x2.transpose(0, 1).mul_((x0[:, 1:4] + -2).clamp(-2, 2))
    x3[2:3].copy_(x1[2, 1:2])
    v3 = t2[3:4][:, 3]
    return t2, v3


def inputs():
    base0 = torch.randint(-4, 5, (5, 3)).float()
    return torch.randint(-4, 5, (3, 4)).float(), base0[0:3], base0[2:5], torch.randint(-4, 5, (5,)).float(), torch.randint(-3, 4, (5, 4)).float().requires_grad_()
