"""The input's old value is read after the op (through a view taken before): the write-back
would change what is read, and the check refuses it."""
import torch
from torch import Tensor

EXPECT = """
rejects: write_back_custom_op at legality
matches_eager exact
"""
MODE = "inference"
CALLS = 3
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::scale_rows_after_", mutates_args=("x",))
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
