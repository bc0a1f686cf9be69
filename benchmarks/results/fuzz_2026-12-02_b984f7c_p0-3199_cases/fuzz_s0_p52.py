"""Found by `rewrite fuzz --seed 0 --n 3200 --base both` (program 52), minimized from 8 to 3
statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: input[1]: not equal at 4 of 8 elements; first at
    [4]: eager 5.0, compiled 8.0; input[1]._base: not equal at 4 of 14 elements; first at [4]:
    eager 5.0, compiled 8.0; input[2]: not equal at 2 of 8 elements; first at [0]: eager -1.0,
    compiled 2.0; input[2]._base: not equal at 4 of 14 elements; first at [4]: eager 5.0,
    compiled 8.0
inductor: differs from eager on call 1: input[1]: not equal at 4 of 8 elements; first at [4]:
    eager 5.0, compiled 8.0; input[1]._base: not equal at 4 of 14 elements; first at [4]: eager
    5.0, compiled 8.0; input[2]: not equal at 2 of 8 elements; first at [0]: eager -1.0,
    compiled 2.0; input[2]._base: not equal at 4 of 14 elements; first at [4]: eager 5.0,
    compiled 8.0
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


def fn(x0, x1, x2):
    def true_fn_1(p):
        x1[7] = 1.0
        return p + 1
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x2,))
    x1.add_(x1.flip(0))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (14,)).float()
    return torch.randint(-4, 5, (8,)).float()[::2], base0[0:8], base0[6:14]
