"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 3600..4999)` (program 3695),
minimized from 8 to 2 statements: both on base eager.

rewrite-eager: raised on call 1: AssertionError: incorrect out shape after application of
    ViewMeta sequence: (2, 3) (actual) vs (3,) (expected)
pipeline-eager: raised on call 1: AssertionError: incorrect out shape after application of
    ViewMeta sequence: (2, 3) (actual) vs (3,) (expected)
Rules fired: reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "training"
CALLS = 3
DYNAMIC = True


def fn(x0, x1):
    x0[:, :2].select(2, -1).sub_(2.0)
    o2 = x1[1]
    return o2


def inputs():
    base0 = torch.randint(-4, 5, (2, 2, 3)).float()
    base2 = torch.randint(-4, 5, (4, 5)).float()
    return base0, base0[0]
