"""Found by `rewrite fuzz --seed 0 --n 5000 --base both` (program 2249), minimized from 9 to 5
statements: both on base eager.

rewrite-eager: differs from eager on call 1: input[0]: not equal at 24 of 25 elements; first at
    [0, 0]: eager 4.5, compiled 4.0; input[1]: not equal at 24 of 25 elements; first at [0, 0]:
    eager 4.5, compiled 4.0
pipeline-eager: differs from eager on call 1: input[0]: not equal at 24 of 25 elements; first at
    [0, 0]: eager 4.5, compiled 4.0; input[1]: not equal at 24 of 25 elements; first at [0, 0]:
    eager 4.5, compiled 4.0
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    o2 = x0.mT
    x1[:, 2:3][:-3] = x1[:, 2:3][3:].clone()
    def true_fn_4(p):
        x1.add_(0.5)
        o2[2, 2] = -1.0
        return p * 2
    def false_fn_4(p):
        return p * 0
    r4 = torch.cond(x0.sum() > 0, true_fn_4, false_fn_4, (x0,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5, 5)).float()
    return base0, base0
