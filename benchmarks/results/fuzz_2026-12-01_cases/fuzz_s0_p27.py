"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 27), minimized from 5 to 4
statements: both on base inductor.

rewrite-inductor: raised on call 1: RuntimeError: When merging two branches' output in
    torch.cond,  expected same storage_offset but got 0 and 1.
inductor: differs from eager on call 1: output[0]: not equal at 4 of 20 elements; first at [1,
    1]: eager 3.0, compiled 1.5
Rules fired: cond_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x1, x2):
    def true_fn_1(p):
        return p + 1
    def false_fn_1(p):
        x1.index_put_((torch.tensor([-4]),), torch.tensor(3.0, dtype=torch.float32))
        x2[1] = 3.0
        return p.clone()
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    x1[:, 1:][1].mul_(0.5)
    return r1


def inputs():
    base0 = torch.randint(-4, 5, (4, 5)).float()
    base1 = torch.randint(-4, 5, (10,)).float()
    return base0, base1[1:8]
