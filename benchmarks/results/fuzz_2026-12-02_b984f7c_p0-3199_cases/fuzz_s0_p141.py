"""Found by `rewrite fuzz --seed 0 --n 3200 --base both` (program 141): both on base eager.

rewrite-eager: raised on call 1: AssertionError: incorrect out shape after application of
    ViewMeta sequence: (2, 3, 4) (actual) vs (3, 3) (expected)
pipeline-eager: raised on call 1: AssertionError: incorrect out shape after application of
    ViewMeta sequence: (2, 3, 4) (actual) vs (3, 3) (expected)
Rules fired: reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    v1 = x1[:, :3][:, :]
    x0[:, :1][:, :, :3].index_put_((torch.tensor([1]),), torch.tensor(3.0, dtype=torch.float32))
    return v1


def inputs():
    base0 = torch.randint(-4, 5, (2, 3, 4)).float()
    return base0, base0[-1]
