"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 2914..4999)` (program 2949),
minimized from 5 to 2 statements: both on base eager.

rewrite-eager: differs from eager on call 1: output[0]: not equal at 1 of 5 elements; first at
    [0]: eager 0.5, compiled 4.0
pipeline-eager: differs from eager on call 1: output[0]: not equal at 1 of 5 elements; first at
    [0]: eager 0.5, compiled 4.0
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x1, x2):
    def true_fn_1(p):
        x2.fill_(0.5)
        return p.clone()
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x2.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return r1


def inputs():
    base0 = torch.randint(-4, 5, (5,)).float()
    return base0, base0[0]
