"""Found by `rewrite fuzz --seed 0 --n 5000 --base both` (program 208), minimized from 5 to 2
statements: both on base eager.

rewrite-eager: raised on call 1: RuntimeError: Cannot call numel() on tensor with symbolic
    sizes/strides
pipeline-eager: raised on call 1: RuntimeError: Cannot call numel() on tensor with symbolic
    sizes/strides
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "training"
CALLS = 3
DYNAMIC = True


def fn(x0, x1, x2):
    x1.copy_(x2[2:4].to(torch.float32))
    x0[:-3].copy_(x0[3:].clone())
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4,)).float()
    return base0, base0[1:3], torch.randint(-4, 5, (6,))
