"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 193), minimized from 8 to 2
statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: output[0]: not equal at 2 of 5 elements; first
    at [1, 0]: eager -2147483648, compiled 0
inductor: differs from eager on call 1: output[0]: not equal at 2 of 5 elements; first at [1,
    0]: eager -2147483648, compiled 0
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    def true_fn_1(p):
        return p.clone()
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x1,))
    v3 = r1.view(torch.int32).as_strided((5, 1), (1, 1))
    return v3


def inputs():
    base0 = torch.randint(-4, 5, (3, 10)).float()
    return torch.randint(-4, 5, (8,)).float(), base0[:, ::2]
