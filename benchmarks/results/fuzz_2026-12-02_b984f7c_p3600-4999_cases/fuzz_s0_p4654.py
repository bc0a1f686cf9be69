"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 3600..4999)` (program 4654),
minimized from 5 to 4 statements: both on base eager.

rewrite-eager: differs from eager on call 2: input[0]: not equal at 3 of 9 elements; first at
    [0, 1]: eager -24.0, compiled -12.0; input[1]: not equal at 3 of 3 elements; first at [0]:
    eager -24.0, compiled -12.0; input[1]._base: not equal at 3 of 9 elements; first at [0, 1]:
    eager -24.0, compiled -12.0
pipeline-eager: differs from eager on call 2: input[0]: not equal at 3 of 9 elements; first at
    [0, 1]: eager -24.0, compiled -12.0; input[1]: not equal at 3 of 3 elements; first at [0]:
    eager -24.0, compiled -12.0; input[1]._base: not equal at 3 of 9 elements; first at [0, 1]:
    eager -24.0, compiled -12.0
Rules fired: reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x3):
    def true_fn_1(p):
        x0[:, 1:].add_(x3[:, 2:4].to(torch.float32))
        return p * 2
    def false_fn_1(p):
        x1.mul_(2)
        x0[:, 1:2].add_((p[:, :1] * 3).to(torch.float32))
        return p.clone()
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x3,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (3, 3)).float()
    return base0, base0[:, 1], torch.randint(-4, 5, (3, 4))
