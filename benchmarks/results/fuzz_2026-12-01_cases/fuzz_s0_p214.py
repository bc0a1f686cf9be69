"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 214), minimized from 7 to 2
statements: ours on base inductor.

rewrite-inductor: raised on call 1: RuntimeError: When merging two branches' output in
    torch.cond,  expected same storage_offset but got 6 and 0.
inductor: matches eager
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


def fn(x0, x1):
    def true_fn_1(p):
        x1[1, 1] = 3.0
        return p + 1
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (2, 2, 3)).float()
    return base0, base0[-1]
