"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 255), minimized from 11 to 4
statements: both on base eager.

rewrite-eager: raised on call 1: RuntimeError: cond_true might be modifying the input!
pipeline-eager: raised on call 1: RuntimeError: cond_true might be modifying the input!
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x2, x3, x4):
    def true_fn_2(p):
        x4.mul_(2)
        def true_fn_3(p):
            x0[3] = 0.5
            return p + 1
        def false_fn_3(p):
            return p - 1
        r3 = torch.cond(x2.sum() > 0, true_fn_3, false_fn_3, (x2,))
        return p + 1
    def false_fn_2(p):
        return p * 0
    r2 = torch.cond(x0.sum() > 0, true_fn_2, false_fn_2, (x3,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (11,)).float()
    base1 = torch.randint(-4, 5, (5, 4)).float()
    base2 = torch.randint(-4, 5, (3, 3)).float()
    return base0[2:], base1, base2, base2
