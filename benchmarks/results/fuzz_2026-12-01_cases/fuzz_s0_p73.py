"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 73), minimized from 16 to 4
statements: both on base eager.

rewrite-eager: raised on call 1: RuntimeError: body_fn might be modifying the input!
pipeline-eager: raised on call 1: RuntimeError: body_fn might be modifying the input!
Rules fired: while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    def cond_fn_3(i, acc):
        return i < 1
    def body_fn_3(i, acc):
        return i + 1, acc + x1.sum()
    i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    def cond_fn_5(i, acc):
        return i < 1
    def body_fn_5(i, acc):
        def cond_fn_6(i, acc):
            return i < 2
        def body_fn_6(i, acc):
            x0[0] = -2.0
            return i + 1, acc + x0.sum()
        i6, acc6 = torch.while_loop(cond_fn_6, body_fn_6, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return i + 1, acc + acc3.sum()
    i5, acc5 = torch.while_loop(cond_fn_5, body_fn_5, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (10,)).float()
    return base0[1:8], torch.randint(-4, 5, (7,)).float()
