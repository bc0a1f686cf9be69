"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 50), minimized from 4 to 3
statements: ours on base eager.

rewrite-eager: raised on call 1: RuntimeError: cond_true might be modifying the input!
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


def fn(x0, x1):
    def true_fn_1(p):
        def true_fn_2(p):
            x1[1] = 1.0
            return p + 1
        def false_fn_2(p):
            return p - 1
        r2 = torch.cond(x0.sum() > 0, true_fn_2, false_fn_2, (x1,))
        return p * 2
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x0,))
    return None


def inputs():
    return torch.randint(-4, 5, (4, 3)).float(), torch.randint(-4, 5, (6,)).float()
