"""`c = x[1].clone(); reverse_into(x[1], c)` on a row of a 2-D input (issue 22: the v2 form of
pytorch issue 198031)."""
import torch
from torch import Tensor

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::reverse_row_into_v2", mutates_args=("out",))
def reverse_into(out: Tensor, x: Tensor) -> None:
    n = x.shape[0]
    for i in range(n):
        out[i] = x[n - 1 - i]


@reverse_into.register_fake
def _(out, x):
    return None


def fn(x):
    c = x[1].clone()
    reverse_into(x[1], c)
    return x * 2


def inputs():
    return (torch.randint(-4, 5, (3, 6)).float(),)
