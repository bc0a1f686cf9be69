"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 2914..4999)` (program 3079),
minimized from 11 to 3 statements: both on base inductor.

rewrite-inductor: raised on call 1: AssertionError: expected size 4==4, stride 4==8 at dim=0;
    expected size 4==4, stride 1==2 at dim=1
inductor: raised on call 1: AssertionError: expected size 4==4, stride 4==8 at dim=0; expected
    size 4==4, stride 1==2 at dim=1
Rules fired: reinplace_scatter_into_input.
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
    x0[3][1:] = x0[3][:-1].clone()
    def true_fn_1(p):
        x0[2, 0] = 1.0
        return p.clone()
    def false_fn_1(p):
        return p - 1
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 8)).float()
    return base0[:, ::2], torch.randint(-4, 5, (3, 5)).float()
