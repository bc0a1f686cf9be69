"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 3600..4999)` (program 4235),
minimized from 8 to 3 statements: both on base eager.

rewrite-eager: raised on call 1: IndexError: index 0 is out of bounds for dimension 1 with size
    0
pipeline-eager: raised on call 1: IndexError: index 0 is out of bounds for dimension 1 with size
    0
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x1):
    v2 = x1[:, 1:2]
    def true_fn_3(p):
        return p * 2
    def false_fn_3(p):
        v2[2, 0] = 1.0
        return p - 1
    r3 = torch.cond(x1.sum() > 0, true_fn_3, false_fn_3, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5, 8)).float()
    return (base0[:, 4:],)
