"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 9), minimized from 10 to 5
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
    t1 = x1 * x0[:3]
    v2 = t1[2][-2]
    def cond_fn_4(i, acc):
        return i < 1
    def body_fn_4(i, acc):
        def cond_fn_5(i, acc):
            return i < 3
        def body_fn_5(i, acc):
            x0[1:3].add_(x0[1:3] * 2)
            return i + 1, acc + x1.sum()
        i5, acc5 = torch.while_loop(cond_fn_5, body_fn_5, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return i + 1, acc + v2.sum()
    i4, acc4 = torch.while_loop(cond_fn_4, body_fn_4, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    return torch.randint(-4, 5, (5,)).float(), torch.randint(-4, 5, (3, 3)).float()
