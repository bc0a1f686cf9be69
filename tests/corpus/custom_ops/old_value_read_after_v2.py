"""The input's old value is read after the op (`y` is a clone that noop removal merged into `x`):
the check refuses writing into the input, and the call is left to Inductor (which clones it)."""
import torch
from torch import Tensor

EXPECT = """
rejects: write_back_custom_op at legality
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::scale_rows_after__v2", mutates_args=("x",))
def scale_(x: Tensor, s: Tensor) -> None:
    for i in range(x.shape[0]):
        x[i] = x[i] * s[i]


@scale_.register_fake
def _(x, s):
    return None


def fn(x, s):
    y = x.clone()
    scale_(y, s)
    return y + x


def inputs():
    return torch.randn(5, 3), torch.randn(5, 3)
