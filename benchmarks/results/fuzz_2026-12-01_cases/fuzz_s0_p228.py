"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 228), minimized from 6 to 2
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


def fn(x0, x2, x3):
    def true_fn_1(p):
        x2[:, 2].index_add_(0, torch.tensor([1, 3]), p[2, 1:3])
        return p * 2
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x3,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 4)).float()
    base1 = torch.randint(-4, 5, (5, 8)).float()
    return base0[0:3], base1[:, 0:4], base1[:, 4:]
