"""Found by `rewrite fuzz --seed 0 --n 3200 --base both` (program 627), minimized from 2 to 1
statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: input[1].grad: not equal at 2 of 4 elements;
    first at [1]: eager 2.4617509841918945, compiled 2.4617512226104736
inductor: differs from eager on call 1: input[1].grad: not equal at 2 of 4 elements; first at
    [1]: eager 2.4617509841918945, compiled 2.4617512226104736
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = False


def fn(w5, w6):
    t2 = w5 * w6[1:4]
    return t2


def inputs():
    return torch.randint(-3, 4, (2, 3, 3)).float().requires_grad_(), torch.randint(-3, 4, (4,)).float().requires_grad_()
