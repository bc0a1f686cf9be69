"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 3600..4999)` (program 3985),
minimized from 7 to 4 statements: both on base eager.

rewrite-eager: differs from eager on call 1: input[0]: not equal at 24 of 25 elements; first at
    [0, 0]: eager 8.0, compiled 4.0; input[0]._base: not equal at 24 of 40 elements; first at
    [0, 0]: eager 8.0, compiled 4.0; input[1]: not equal at 9 of 25 elements; first at [0, 0]:
    eager -4.0, compiled -2.0; input[1]._base: not equal at 24 of 40 elements; first at [0, 0]:
    eager 8.0, compiled 4.0
pipeline-eager: raised on call 1: RuntimeError: cond_true might be modifying the input!
Rules fired: cond_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    def true_fn_1(p):
        x1[:, 2:4].add_(x0[:, :2])
        def true_fn_2(p):
            x0.mul_(2)
            return p + 1
        def false_fn_2(p):
            return p * 0
        r2 = torch.cond(x0.sum() > 0, true_fn_2, false_fn_2, (x0,))
        return p.clone()
    def false_fn_1(p):
        return p.clone()
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x0,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (8, 5)).float()
    return base0[0:5], base0[3:8]
