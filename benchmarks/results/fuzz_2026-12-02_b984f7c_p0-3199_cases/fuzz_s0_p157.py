"""Found by `rewrite fuzz --seed 0 --n 3200 --base both` (program 157): both on base inductor.

rewrite-inductor: raised on call 1: AssertionError: expected size 3==3, stride 5==10 at dim=0
inductor: raised on call 1: AssertionError: expected size 3==3, stride 5==10 at dim=0
Rules fired: reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2, x3):
    x1[:, 2:3:2].copy_(x0[2:5, 4:5])
    def true_fn_1(p):
        x1[1, 4] = -2.0
        return p + 1
    def false_fn_1(p):
        return p - 1
    r1 = torch.cond(x3.sum() > 0, true_fn_1, false_fn_1, (x2,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (3, 10)).float()
    base1 = torch.randint(-4, 5, (6, 4)).float()
    return torch.randint(-4, 5, (5, 5)).float().t(), base0[:, 0:5], base0[:, 5:], base1[0:3]
