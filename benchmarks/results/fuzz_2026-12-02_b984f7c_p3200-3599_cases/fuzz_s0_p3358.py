"""Found by `rewrite fuzz --seed 0 --n 3600 --base both (programs 3200..3599)` (program 3358),
minimized from 8 to 3 statements: both on base eager.

rewrite-eager: raised on call 1: RuntimeError: Cannot call numel() on tensor with symbolic
    sizes/strides
pipeline-eager: raised on call 1: RuntimeError: Cannot call numel() on tensor with symbolic
    sizes/strides
Rules fired: cond_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = True


def fn(x0, x1, x2, x3, x4):
    def true_fn_1(p):
        x3[3:].add_(x1[1, :2])
        return p.clone()
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x2,))
    x0[5:6] = x4
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5, 4)).float()
    base1 = torch.randint(-4, 5, (5,)).float()
    return torch.randint(-4, 5, (7,)).float(), base0, base0, base1, base1[-1]
