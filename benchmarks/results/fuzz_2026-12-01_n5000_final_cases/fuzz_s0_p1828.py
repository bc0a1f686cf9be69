"""Found by `rewrite fuzz --seed 0 --n 5000 --base both` (program 1828), minimized from 5 to 2
statements: both on base inductor.

rewrite-inductor: raised on call 1: LoweringException: LoweringException: AssertionError:
    Broadcast failed in ExpandView([4, 4], [1, 4]) on dimension 0
inductor: raised on call 1: LoweringException: LoweringException: AssertionError: Broadcast
    failed in ExpandView([4, 4], [1, 4]) on dimension 0
Rules fired: cond_captured_mutations, reinplace_scatter_into_intermediate.
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
        return p + 1
    def false_fn_1(p):
        x1[2:3][:, :4][x0[:4] > 0] = 2.0
        return p - 1
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (9,)).float()
    return base0[2:], torch.randint(-4, 5, (4, 4)).float()
