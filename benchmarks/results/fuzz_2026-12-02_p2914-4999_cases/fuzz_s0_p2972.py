"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 2914..4999)` (program 2972),
minimized from 12 to 7 statements: both on base eager.

rewrite-eager: differs from eager on call 1: input[1]: not equal at 1 of 4 elements; first at
    [2]: eager 2.0, compiled -1.0; input[1]._base: not equal at 1 of 8 elements; first at [4]:
    eager 2.0, compiled -1.0
pipeline-eager: differs from eager on call 1: input[1]: not equal at 1 of 4 elements; first at
    [2]: eager 2.0, compiled -1.0; input[1]._base: not equal at 1 of 8 elements; first at [4]:
    eager 2.0, compiled -1.0
Rules fired: while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    o2 = x0.clone()
    def cond_fn_1(i, acc):
        return i < 3
    def body_fn_1(i, acc):
        x0[4, 2] = 1.0
        return i + 1, acc + x1.sum()
    i1, acc1 = torch.while_loop(cond_fn_1, body_fn_1, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    o3 = x0.clone()
    def true_fn_4(p):
        def true_fn_5(p):
            return p * 2
        def false_fn_5(p):
            x1[2] = 2.0
            return p * 0
        r5 = torch.cond(x1.sum() > 0, true_fn_5, false_fn_5, (x0,))
        return p.clone()
    def false_fn_4(p):
        return p.clone()
    r4 = torch.cond(o3.sum() > 0, true_fn_4, false_fn_4, (o2,))
    return None


def inputs():
    return torch.randint(-4, 5, (5, 3)).float(), torch.randint(-4, 5, (8,)).float()[::2]
