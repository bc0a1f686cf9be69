"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 46), minimized from 5 to 2
statements: both on base eager.

rewrite-eager: raised on call 1: RuntimeError: unsupported operation: some elements of the input
    tensor and the written-to tensor refer to a single memory location. Please clone() the
    tensor before performing the operation.
pipeline-eager: raised on call 1: RuntimeError: unsupported operation: some elements of the
    input tensor and the written-to tensor refer to a single memory location. Please clone() the
    tensor before performing the operation.
Rules fired: privatize_for_inductor.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    x1.sub_(-1.0)
    x0[5:8][:-1].copy_(x0[5:8][1:].clone())
    return x1


def inputs():
    base0 = torch.randint(-4, 5, (8,)).float()
    return base0, base0[-1]
