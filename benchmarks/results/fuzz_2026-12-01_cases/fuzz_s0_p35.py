"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 35), minimized from 8 to 4
statements: both on base eager.

rewrite-eager: raised on call 1: RuntimeError: cond_false might be modifying the input!
pipeline-eager: raised on call 1: RuntimeError: cond_false might be modifying the input!
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
    def true_fn_2(p):
        def true_fn_3(p):
            return p.clone()
        def false_fn_3(p):
            x0[2:].add_(0.5)
            return p.clone()
        r3 = torch.cond(x0.sum() > 0, true_fn_3, false_fn_3, (x1,))
        return p * 2
    def false_fn_2(p):
        x0[2] = -2.0
        return p - 1
    r2 = torch.cond(x0.sum() > 0, true_fn_2, false_fn_2, (x1,))
    return None


def inputs():
    return torch.randint(-4, 5, (4,)).float(), torch.randint(-4, 5, (4, 5))
