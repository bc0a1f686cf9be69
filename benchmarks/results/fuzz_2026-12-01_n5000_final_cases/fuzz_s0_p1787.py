"""Found by `rewrite fuzz --seed 0 --n 5000 --base both` (program 1787), minimized from 16 to 2
statements: both on base eager.

rewrite-eager: raised on call 1: ValueError: Cannot view a tensor with shape torch.Size([2, 3,
    3]) and strides (9, 1, 3) as a tensor with shape (18,)!
pipeline-eager: raised on call 1: RuntimeError: The sorted order of strides of the two branches'
    output doesn't match.this indicates the contiguousness of the two branches are different.
    True branch has stride (9, 1, 3) but false branch has stride (9, 3, 1).Consider using
    contiguous() to make the two branches have the same contiguousness.
Rules fired: cond_captured_mutations.
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    def true_fn_1(p):
        x0.transpose(1, 2).view(torch.int32).masked_fill_(x0 > 0, 3)
        return p + 1
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x0,))
    return None


def inputs():
    return torch.randint(-4, 5, (2, 3, 3)).float(), torch.randint(-4, 5, (5, 3)).float()
