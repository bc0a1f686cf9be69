"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 48), minimized from 9 to 3
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


def fn(x2):
    o1 = x2[2]
    def true_fn_4(p):
        return p + 1
    def false_fn_4(p):
        o1[2] = 2.0
        return p * 0
    r4 = torch.cond(x2.sum() > 0, true_fn_4, false_fn_4, (x2,))
    return None


def inputs():
    base1 = torch.randint(-4, 5, (4, 3)).float()
    return (base1,)
