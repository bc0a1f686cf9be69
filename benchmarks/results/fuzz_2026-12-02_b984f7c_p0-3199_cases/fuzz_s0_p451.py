"""Found by `rewrite fuzz --seed 0 --n 3200 --base both` (program 451), minimized from 7 to 3
statements: both on base eager.

rewrite-eager: differs from eager on call 1: output[0]: not equal at 2 of 2 elements; first at
    [0, 0]: eager -2.0, compiled -3.0
pipeline-eager: differs from eager on call 1: output[0]: not equal at 2 of 2 elements; first at
    [0, 0]: eager -2.0, compiled -3.0
Rules fired: cond_captured_mutations, reinplace_scatter_into_input, reinplace_scatter_into_intermediate.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x1, x2, x3):
    def true_fn_1(p):
        return p + 1
    def false_fn_1(p):
        x2[3:5].narrow(0, 0, 2).index_put_((torch.tensor([1, 0]),), x1[1:3] * 3)
        return p * 0
    r1 = torch.cond(x3.sum() > 0, true_fn_1, false_fn_1, (x1,))
    v3 = x3[:, :-1:2][3:4]
    return v3


def inputs():
    base0 = torch.randint(-4, 5, (6, 4)).float()
    base1 = torch.randint(-4, 5, (6, 4)).float()
    return base0[3:], base1[0:5], base1[1:6]
