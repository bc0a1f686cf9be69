"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 272), minimized from 7 to 3
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


def fn(x0):
    v1 = x0.narrow(0, 4, 1)
    def true_fn_2(p):
        v1[0] = 3.0
        return p + 1
    def false_fn_2(p):
        return p - 1
    r2 = torch.cond(x0.sum() > 0, true_fn_2, false_fn_2, (x0,))
    return None


def inputs():
    return (torch.randint(-4, 5, (5,)).float(),)
