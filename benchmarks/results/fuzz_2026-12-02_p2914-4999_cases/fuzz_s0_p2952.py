"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 2914..4999)` (program 2952):
stock on base inductor.

rewrite-inductor: matches eager
inductor: raised on call 1: NotImplementedError: make_reindexer NYI on DtypeView(
Rules fired: privatize_for_inductor.
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0):
    x0.fill_(0.5)
    x0.view(torch.int32)[torch.tensor([1, 1, 0]), torch.tensor([0, 2, 0])] = (x0[1] * -1).to(torch.int32)
    return None


def inputs():
    return (torch.randint(-4, 5, (2, 3, 3)).float(),)
