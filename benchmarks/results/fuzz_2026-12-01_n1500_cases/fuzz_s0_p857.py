"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 857), minimized from 7 to 2
statements: ours on base eager.

rewrite-eager: raised on call 1: RuntimeError: unsupported operation: some elements of the input
    tensor and the written-to tensor refer to a single memory location. Please clone() the
    tensor before performing the operation.
pipeline-eager: matches eager
Rules fired: reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0):
    v1 = x0[:, 1:][:, :1]
    v1[:5].index_copy_(1, torch.tensor([0]), v1)
    return None


def inputs():
    return (torch.randint(-4, 5, (5, 3)).float(),)
