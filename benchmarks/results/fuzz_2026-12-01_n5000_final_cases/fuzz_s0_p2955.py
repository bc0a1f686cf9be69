"""Found by `rewrite fuzz --seed 0 --n 5000 --base both` (program 2955), minimized from 9 to 5
statements: both on base inductor.

rewrite-inductor: raised on call 1: AssertionError: expected size 7==7, stride 2==1 at dim=0
inductor: differs from eager on call 1: input[1]: not equal at 2 of 5 elements; first at [3]:
    eager -6.0, compiled -10.0
Rules fired: cond_captured_mutations, materialize_source_for_inductor, privatize_for_inductor.
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
    x0.index_put_((torch.tensor([4, 3, 6]),), x0[2:5].flip(0))
    x1.index_copy_(0, torch.tensor([3, 2, 1]), x0[3:6])
    x1.add_(x1.flip(0))
    def true_fn_1(p):
        x0.mul_(2)
        return p * 2
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x0,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (11,)).float()
    return torch.randint(-4, 5, (14,)).float()[::2], torch.randint(-4, 5, (5,)).float()
