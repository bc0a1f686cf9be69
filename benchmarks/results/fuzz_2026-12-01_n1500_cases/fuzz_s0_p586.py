"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 586), minimized from 3 to 2
statements: both on base inductor.

rewrite-inductor: raised on call 1: NotImplementedError: make_reindexer NYI on DtypeView(
inductor: raised on call 1: NotImplementedError: make_reindexer NYI on DtypeView(
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = False


def fn(w3):
    t3 = w3 * 3
    t3.view(torch.int32).index_add_(0, torch.tensor([2]), (w3[4:5] * -1).to(torch.int32))
    return t3


def inputs():
    return (torch.randint(-3, 4, (5,)).float().requires_grad_(),)
