"""Found by `rewrite fuzz --seed 0 --n 3200 --base both` (program 485), minimized from 5 to 2
statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: input[0]: not equal at 1 of 20 elements; first
    at [4, 0]: eager -1.0, compiled -4.0; input[0]._base: not equal at 1 of 24 elements; first
    at [4, 0]: eager -1.0, compiled -4.0; input[1]: not equal at 1 of 20 elements; first at [3,
    0]: eager -1.0, compiled -4.0; input[1]._base: not equal at 1 of 24 elements; first at [4,
    0]: eager -1.0, compiled -4.0
inductor: differs from eager on call 1: input[0]: not equal at 1 of 20 elements; first at [4,
    0]: eager -1.0, compiled -4.0; input[0]._base: not equal at 1 of 24 elements; first at [4,
    0]: eager -1.0, compiled -4.0; input[1]: not equal at 1 of 20 elements; first at [3, 0]:
    eager -1.0, compiled -4.0; input[1]._base: not equal at 1 of 24 elements; first at [4, 0]:
    eager -1.0, compiled -4.0
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


def fn(x1, x2):
    def cond_fn_1(i, acc):
        x1[4, 0] = -1.0
        return i < 1
    def body_fn_1(i, acc):
        return i + 1, acc + x2.sum()
    i1, acc1 = torch.while_loop(cond_fn_1, body_fn_1, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (6, 4)).float()
    return base0[0:5], base0[1:6]
