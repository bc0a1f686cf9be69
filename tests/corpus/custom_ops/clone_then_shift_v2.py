"""`c = x.clone(); shift_into(x, c)` with a shifting op (issue 22, the family of pytorch issue
198031): the clone merged into `x`, the op must still read the old values."""
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


@torch.library.custom_op("corpus::shift_into_v2", mutates_args=("out",))
def shift_into(out: Tensor, x: Tensor) -> None:
    n = x.shape[0]
    for i in range(n):
        out[i] = x[(i + 1) % n] - x[i]


@shift_into.register_fake
def _(out, x):
    return None


def fn(x):
    c = x.clone()
    shift_into(x, c)
    return x + 1


def inputs():
    return (torch.randint(-4, 5, (7,)).float(),)
