"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 34), minimized from 3 to 2
statements: stock on base inductor.

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


def fn(x2):
    x2[:-1:2][0].add_(x2[3])
    x2.view(2, 3).view(torch.int32).index_put_((torch.tensor([0]),), x2[1:4].clone().to(torch.int32))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (3, 8)).float()
    return (torch.randint(-4, 5, (6,)).float(),)
