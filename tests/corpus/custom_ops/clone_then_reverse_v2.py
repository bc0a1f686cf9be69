"""The same under v2: the call is left to Inductor's reinplacing, with a copy of what it reads."""
import torch
from torch import Tensor

EXPECT = """
fires: copy_reads_of_written_memory
not fires: write_back_custom_op
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::reverse_into_v2", mutates_args=("out",))
def reverse_into(out: Tensor, x: Tensor) -> None:
    n = x.shape[0]
    for i in range(n):
        out[i] = x[n - 1 - i]


@reverse_into.register_fake
def _(out, x):
    return None


def fn(x):
    c = x.clone()
    reverse_into(x, c)
    return x * 2


def inputs():
    return (torch.arange(6.0),)
