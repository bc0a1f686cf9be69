"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 5), minimized from 14 to 4
statements: stock on base inductor.

rewrite-inductor: matches eager
inductor: raised on call 1: RuntimeError: body_fn might be modifying the input!
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


def fn(x0, x1):
    t1 = (x0 * 2 + 1).relu()
    def cond_fn_2(i, acc):
        return i < 2
    def body_fn_2(i, acc):
        def cond_fn_3(i, acc):
            return i < 1
        def body_fn_3(i, acc):
            x1[:3].add_(t1[1] + -2)
            return i + 1, acc + x1.sum()
        i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return i + 1, acc + x1.sum()
    i2, acc2 = torch.while_loop(cond_fn_2, body_fn_2, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (6, 3)).float()
    return base0[1:5], torch.randint(-4, 5, (5,)).float()
