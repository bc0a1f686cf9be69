"""An op on `x[2:6]` followed by `x[4:].add_(1.0)` (issue 22): the op's write goes into the input's
slice in place, and the later update reads what it wrote."""
import torch
from torch import Tensor

EXPECT = """
fires: write_back_custom_op
absent: higher_order.auto_functionalized
absent: higher_order.auto_functionalized_v2
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::double_rows_v1", mutates_args=("x",))
def double_rows(x: Tensor) -> None:
    for i in range(x.shape[0]):
        x[i] = x[i] * 2


@double_rows.register_fake
def _(x):
    return None


def fn(x):
    double_rows(x[2:6])
    x[4:].add_(1.0)
    return x.sum(0)


def inputs():
    return (torch.randint(-4, 5, (8, 3)).float(),)
