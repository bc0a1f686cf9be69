"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 201), minimized from 17 to 4
statements: both on base eager.

rewrite-eager: raised on call 1: RuntimeError: cond_false might be modifying the input!
pipeline-eager: raised on call 1: RuntimeError: cond_false might be modifying the input!
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    def true_fn_1(p):
        def true_fn_2(p):
            return p + 1
        def false_fn_2(p):
            x1.add_(p + 1)
            return p * 0
        r2 = torch.cond(x0.sum() > 0, true_fn_2, false_fn_2, (x1,))
        return p + 1
    def false_fn_1(p):
        x1[1] = 0.5
        return p * 0
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (7,)).float()
    return torch.randint(-4, 5, (4, 3, 2)).float().transpose(0, 2), base0[1:5]
