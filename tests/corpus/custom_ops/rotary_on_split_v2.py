"""Rotary applied in place to the query and key slices of one matmul (`q, k = (x @ w).split(...)`):
vLLM's "blind" case, written back because the check proves the slices disjoint and unread."""
import torch
from torch import Tensor

EXPECT = """
fires: write_back_custom_op
absent: higher_order.auto_functionalized
absent: aten.slice_scatter
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::rotary_split__v2", mutates_args=("q", "k"))
def rotary_(q: Tensor, k: Tensor, c: Tensor) -> None:
    for i in range(q.shape[0]):
        q[i] = q[i] * c[i] - k[i]
        k[i] = k[i] * c[i] + q[i]


@rotary_.register_fake
def _(q, k, c):
    return None


def fn(x, w, c):
    q, k = (x @ w).split(4, dim=1)
    rotary_(q, k, c)
    return q + k


def inputs():
    return torch.randn(4, 3), torch.randn(3, 8), torch.randn(4, 4)
