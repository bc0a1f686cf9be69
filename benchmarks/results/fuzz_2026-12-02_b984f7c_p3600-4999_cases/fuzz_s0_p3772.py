"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 3600..4999)` (program 3772),
minimized from 6 to 3 statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: input[0]: not equal at 4 of 12 elements; first
    at [0, 2]: eager 7.0, compiled 10.0; input[0]._base: not equal at 4 of 24 elements; first at
    [0, 4]: eager 7.0, compiled 10.0
inductor: differs from eager on call 1: input[0]: not equal at 4 of 12 elements; first at [0,
    2]: eager 7.0, compiled 10.0; input[0]._base: not equal at 4 of 24 elements; first at [0,
    4]: eager 7.0, compiled 10.0
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


def fn(x1):
    def true_fn_1(p):
        x1[2:-1].add_(x1.t()[2:3, :3] + 1)
        return p * 2
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    x1.add_(x1.flip(1))
    return None


def inputs():
    base1 = torch.randint(-4, 5, (4, 6)).float()
    return (base1[:, ::2],)
