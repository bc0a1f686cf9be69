"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 7), minimized from 5 to 2
statements: stock on base inductor.

rewrite-inductor: matches eager
inductor: differs from eager on call 1: input[0]: not equal at 1 of 4 elements; first at [2]:
    eager -13.0, compiled 3.0; input[0]._base: not equal at 1 of 6 elements; first at [4]: eager
    -13.0, compiled 3.0
Rules fired: while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x1, x5):
    def cond_fn_2(i, acc):
        x1[2:3].add_(x5[4:5] + -2)
        return i < 3
    def body_fn_2(i, acc):
        return i + 1, acc + x1.sum()
    i2, acc2 = torch.while_loop(cond_fn_2, body_fn_2, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (6,)).float()
    base2 = torch.randint(-4, 5, (10,)).float()
    return base0[2:6], base2[5:]
