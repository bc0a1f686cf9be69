"""Found by `rewrite fuzz --seed 0 --n 3200 --base both` (program 772), minimized from 11 to 6
statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: input[0]: not equal at 3 of 12 elements; first
    at [2, 0]: eager 9, compiled 3
inductor: raised on call 1: RuntimeError: cond_true might be modifying the input!
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


def fn(x0, x1, x2):
    t1 = x1 - 1
    def cond_fn_2(i, acc):
        x1[0, 3] = 2.0
        return i < 2
    def body_fn_2(i, acc):
        x0[2::2].add_(3)
        def true_fn_3(p):
            x2.add_(-1.0)
            return p.clone()
        def false_fn_3(p):
            return p - 1
        r3 = torch.cond(x2.sum() > 0, true_fn_3, false_fn_3, (x2,))
        return i + 1, acc + t1.sum()
    i2, acc2 = torch.while_loop(cond_fn_2, body_fn_2, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 5)).float()
    return torch.randint(-4, 5, (4, 3)), base0[0:3], base0[1:4]
