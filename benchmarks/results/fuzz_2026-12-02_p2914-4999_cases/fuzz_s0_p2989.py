"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 2914..4999)` (program 2989),
minimized from 7 to 4 statements: stock on base inductor.

rewrite-inductor: matches eager
inductor: raised on call 1: RuntimeError: cond_true might be modifying the input!
Rules fired: cond_captured_mutations, reinplace_scatter_into_intermediate.
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
    def true_fn_1(p):
        def true_fn_2(p):
            x1[5] = 2.0
            return p.clone()
        def false_fn_2(p):
            return p - 1
        r2 = torch.cond(x1.sum() > 0, true_fn_2, false_fn_2, (x1,))
        return p + 1
    def false_fn_1(p):
        x0[0] = -2.0
        return p - 1
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    return torch.randint(-4, 5, (8,)).float(), torch.randint(-4, 5, (8,)).float()
