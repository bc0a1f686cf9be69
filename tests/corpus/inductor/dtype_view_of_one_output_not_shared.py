"""One output is a piece of a tensor written through an int32 view, the other a tensor of its
own: no two outputs are views of one dtype view, so nothing needs computing into a shared
buffer and `share_dtype_viewed_outputs_for_inductor` does not fire (the twin of the p460 case)."""
import torch

EXPECT = """
rejects: share_dtype_viewed_outputs_for_inductor at where
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    t1 = torch.cat((x0, x0 * 2), 0)
    a2, b2 = t1.split(3, 0)
    t1.view(torch.int32).view(-1).add_(1)
    return a2, x0 * 3


def inputs():
    return (torch.randint(-4, 5, (3, 4)).float(),)
