"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 33), minimized from 7 to 3
statements: both on base eager.

rewrite-eager: raised on call 1: RuntimeError: cond_true might be aliasing the input or the
    output!
pipeline-eager: raised on call 1: RuntimeError: cond_true might be aliasing the input or the
    output!
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x1, x3, x4):
    def true_fn_1(p):
        def true_fn_2(p):
            return p + 1
        def false_fn_2(p):
            x4[2, 0] = -1.0
            return p * 0
        r2 = torch.cond(x1.sum() > 0, true_fn_2, false_fn_2, (x3,))
        return p * 2
    def false_fn_1(p):
        return p - 1
    r1 = torch.cond(x3.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (10, 4)).float()
    base1 = torch.randint(-4, 5, (7, 4)).float()
    return base0[5:], base1[0:4], base1[3:7]
