"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 237), minimized from 8 to 2
statements: ours on base inductor.

rewrite-inductor: raised on call 1: RuntimeError: When merging two branches' output in
    torch.cond,  expected same storage_offset but got 4 and 0.
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


def fn(x1):
    def true_fn_1(p):
        x1[0, 2] = 2.0
        return p * 2
    def false_fn_1(p):
        return p.clone()
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (3, 4)).float()
    return (base0[1:3],)
