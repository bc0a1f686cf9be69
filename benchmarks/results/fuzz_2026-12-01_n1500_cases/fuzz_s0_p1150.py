"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 1150), minimized from 8 to 4
statements: both on base inductor.

rewrite-inductor: raised on call 1: CppCompileError: C++ compile error
inductor: raised on call 1: CppCompileError: C++ compile error
Rules fired: cond_captured_mutations, reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2):
    x2.masked_fill_(x1 > 0, -1.0)
    def true_fn_1(p):
        return p + 1
    def false_fn_1(p):
        x0[:3:2].add_(x0[3:5].flip(0))
        return p * 0
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x2,))
    x2.mT.view(torch.int32).index_add_(1, torch.tensor([3]), (-x2.t()[:, :1]).to(torch.int32))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5,)).float()
    return base0, base0[-1], torch.randint(-4, 5, (4, 5)).float()
