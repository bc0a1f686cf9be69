"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 280), minimized from 8 to 3
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


def fn(x0, x1, x2):
    def true_fn_1(p):
        def true_fn_2(p):
            return p * 2
        def false_fn_2(p):
            x0[1, 2] = -2.0
            return p * 0
        r2 = torch.cond(x1.sum() > 0, true_fn_2, false_fn_2, (x1,))
        return p * 2
    def false_fn_1(p):
        return p.clone()
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x2,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 8)).float()
    return base0[:, 0:4], base0[:, 4:], torch.randint(-4, 5, (4, 5)).float().t()
