"""Found by `rewrite fuzz --seed 0 --n 3600 --base both (programs 3200..3599)` (program 3330),
minimized from 11 to 4 statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: input[0]: not equal at 3 of 6 elements; first at
    [1]: eager 2.0, compiled -4.0; input[1]._base: not equal at 3 of 6 elements; first at [1]:
    eager 2.0, compiled -4.0
inductor: differs from eager on call 1: input[0]: not equal at 3 of 6 elements; first at [1]:
    eager 2.0, compiled -4.0; input[1]._base: not equal at 3 of 6 elements; first at [1]: eager
    2.0, compiled -4.0
"""
import torch

EXPECT = """
matches_eager exact
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
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    def cond_fn_2(i, acc):
        x1.add_(2.0)
        return i < 1
    def body_fn_2(i, acc):
        x0.fill_(2.0)
        return i + 1, acc + r1.sum()
    i2, acc2 = torch.while_loop(cond_fn_2, body_fn_2, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (6,)).float()
    return base0, base0[0]
