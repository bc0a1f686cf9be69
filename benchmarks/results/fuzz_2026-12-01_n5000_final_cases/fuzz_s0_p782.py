"""Found by `rewrite fuzz --seed 0 --n 5000 --base both` (program 782), minimized from 8 to 3
statements: ours on base inductor.

rewrite-inductor: raised on call 1: AssertionError: expected size 5==5, stride 5==1 at dim=0;
    expected size 5==5, stride 1==5 at dim=1
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
        x0[:5].add_(-x0.t())
        return p + 1
    def false_fn_1(p):
        return p - 1
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    def true_fn_2(p):
        return p.clone()
    def false_fn_2(p):
        return p.clone()
    r2 = torch.cond(r1.sum() > 0, true_fn_2, false_fn_2, (x0,))
    return r2


def inputs():
    base0 = torch.randint(-4, 5, (6, 4)).float()
    return torch.randint(-4, 5, (5, 5)).float().t(), base0[0:4]
