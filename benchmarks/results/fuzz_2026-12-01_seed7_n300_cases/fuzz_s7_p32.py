"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 32), minimized from 10 to 3
statements: stock on base inductor.

rewrite-inductor: matches eager
inductor: raised on call 1: RuntimeError: cond_true might be aliasing the input or the output!
Rules fired: cond_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2):
    def true_fn_1(p):
        def true_fn_2(p):
            x2[0, 1, 1] = -1.0
            return p + 1
        def false_fn_2(p):
            return p * 0
        r2 = torch.cond(x2.sum() > 0, true_fn_2, false_fn_2, (x0,))
        return p * 2
    def false_fn_1(p):
        return p.clone()
    r1 = torch.cond(x2.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (8,)).float()
    return base0, base0[1:3], torch.randint(-4, 5, (2, 2, 3)).float()
