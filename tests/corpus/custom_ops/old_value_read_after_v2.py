"""The input's old value is read after the op (`y` is a clone that noop removal merged into `x`):
the check refuses writing into the input, so the op gets a copy of its own to write (one copy,
as Inductor's clone would be) and is then written back into it, as under v1."""
import torch
from torch import Tensor

EXPECT = """
fires: copy_inputs_a_call_writes
fires: write_back_custom_op
present: rewrite.materialized_copy count=1
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
