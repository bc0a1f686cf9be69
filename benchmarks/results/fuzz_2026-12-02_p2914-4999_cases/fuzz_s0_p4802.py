"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 2914..4999)` (program 4802),
minimized from 7 to 4 statements: stock on base inductor.

rewrite-inductor: matches eager
inductor: raised on call 1: TypeError: unsupported operand type(s) for -: 'GreaterThan' and
    'GreaterThan'
Rules fired: cond_captured_mutations, reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = True


def fn(x0, x1, x3):
    x0[:2] = x3[:3, 1:4]
    v2 = x3.narrow(0, 1, 1).diagonal(1)
    def true_fn_3(p):
        return p + 1
    def false_fn_3(p):
        x1.add_(x1)
        return p.clone()
    r3 = torch.cond(x0.sum() > 0, true_fn_3, false_fn_3, (v2,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (3, 3, 3)).float()
    return base0[0:2], base0[1:3], torch.randint(-4, 5, (4, 4)).float()
