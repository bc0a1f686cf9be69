"""An op given a list of two slices of one input (`Tensor(a!)[]`): both written in place."""
import torch
from torch import Tensor

EXPECT = """
fires: write_back_custom_op
absent: aten.slice_scatter
absent: aten.copy_
matches_eager
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::shift_rows_list__v2", mutates_args=("xs",))
def shift_(xs: list[Tensor], c: Tensor) -> None:
    for t in xs:
        for i in range(t.shape[0]):
            t[i] = t[i] + c[i % c.shape[0]]


@shift_.register_fake
def _(xs, c):
    return None


def fn(x, c):
    shift_([x[:6], x[6:]], c)
    return x.sum()


def inputs():
    return torch.randn(12, 4), torch.randn(5, 4)
