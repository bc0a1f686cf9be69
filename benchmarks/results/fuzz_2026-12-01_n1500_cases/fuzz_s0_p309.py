"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 309), minimized from 8 to 4
statements: stock on base inductor.

rewrite-inductor: matches eager
inductor: raised on call 1: AssertionError: expected size 3==3, stride 1==3 at dim=1; expected
    size 3==3, stride 3==1 at dim=2
Rules fired: cond_captured_mutations, reinplace_scatter_into_input.
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
    x0[1:] = x0[:-1].clone()
    x1[:, :] = x0[:3, :3].to(torch.int64)
    def true_fn_1(p):
        x1.fill_(1)
        return p + 1
    def false_fn_1(p):
        return p - 1
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x0,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 4)).float()
    return base0.t(), torch.randint(-4, 5, (2, 3, 3))
