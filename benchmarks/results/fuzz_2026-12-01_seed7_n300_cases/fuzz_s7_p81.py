"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 81), minimized from 3 to 2
statements: stock on base inductor.

rewrite-inductor: matches eager
inductor: differs from eager on call 1: input[0]: not equal at 1 of 9 elements; first at [2, 2]:
    eager -2, compiled -3
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


def fn(x1, idx2):
    def cond_fn_1(i, acc):
        x1[2, 2] = -2
        return i < 3
    def body_fn_1(i, acc):
        return i + 1, acc + idx2.sum()
    i1, acc1 = torch.while_loop(cond_fn_1, body_fn_1, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    return torch.randint(-4, 5, (3, 3)), torch.tensor([1, 2])
