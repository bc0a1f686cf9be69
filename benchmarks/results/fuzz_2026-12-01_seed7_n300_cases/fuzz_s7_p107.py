"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 107), minimized from 7 to 4
statements: both on base eager.

rewrite-eager: raised on call 1: RuntimeError: cond_true might be modifying the input!
pipeline-eager: raised on call 1: RuntimeError: cond_true might be modifying the input!
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
        x0[2, 4] = 1.0
        def true_fn_2(p):
            x1[1, 3] = -1.0
            return p.clone()
        def false_fn_2(p):
            return p - 1
        r2 = torch.cond(x0.sum() > 0, true_fn_2, false_fn_2, (x0,))
        return p.clone()
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    return torch.randint(-4, 5, (5, 5)).float(), torch.randint(-4, 5, (5, 5)).float().t()
