"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 246), minimized from 9 to 3
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
            return p.clone()
        def false_fn_2(p):
            x1.fill_(3.0)
            return p * 0
        r2 = torch.cond(x0.sum() > 0, true_fn_2, false_fn_2, (x0,))
        return p.clone()
    def false_fn_1(p):
        return p - 1
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x2,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (7,)).float()
    return base0, base0[0], torch.randint(-4, 5, (6,))
