"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 35), minimized from 8 to 6
statements: both on base eager.

rewrite-eager: raised on call 1: IndexError: index 0 is out of bounds for dimension 0 with size
    0
pipeline-eager: raised on call 1: IndexError: index 0 is out of bounds for dimension 0 with size
    0
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x2):
    o1 = x0.mT
    v2 = o1[:, 3:4].view(torch.int32)
    o3 = v2[1:4]
    t4 = v2.clone()
    def true_fn_5(p):
        return p * 2
    def false_fn_5(p):
        o3[0, 0] = 1
        return p * 0
    r5 = torch.cond(x2.sum() > 0, true_fn_5, false_fn_5, (t4,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5, 4)).float()
    base1 = torch.randint(-4, 5, (9,)).float()
    return base0, base1[1:7]
