"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 2914..4999)` (program 2920),
minimized from 3 to 2 statements: both on base eager.

rewrite-eager: differs from eager on call 1: output[0]: not equal at 3 of 9 elements; first at
    [2, 0]: eager -1.0, compiled 3.0
pipeline-eager: differs from eager on call 1: output[0]: not equal at 3 of 9 elements; first at
    [2, 0]: eager -1.0, compiled 3.0
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2):
    def true_fn_1(p):
        x1.add_(x2[0, 1:4].flip(0))
        return p.clone()
    def false_fn_1(p):
        return p.clone()
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x0,))
    return r1


def inputs():
    base0 = torch.randint(-4, 5, (3, 3)).float()
    base1 = torch.randint(-4, 5, (7, 4)).float()
    return base0, base0[-1], base1[1:6]
