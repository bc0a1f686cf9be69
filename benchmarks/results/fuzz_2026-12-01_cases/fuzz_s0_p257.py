"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 257), minimized from 10 to 2
statements: ours on base eager.

rewrite-eager: raised on call 1: RuntimeError: cond_true might be aliasing the input or the
    output!
pipeline-eager: matches eager
Rules fired: cond_captured_mutations.
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
        x0[:3].add_(p * -1)
        return p.clone()
    def false_fn_1(p):
        return p.clone()
    r1 = torch.cond(x2.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (3, 5)).float()
    base1 = torch.randint(-4, 5, (5,)).float()
    return base0, base0[0], base1
