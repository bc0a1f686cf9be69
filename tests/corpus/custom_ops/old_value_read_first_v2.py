"""The old rows are read before the write (`old = cache[slots].clone()`): the write goes in
place and only the rows read are copied first (Inductor would read them lazily, after the write)."""
import torch
from torch import Tensor

EXPECT = """
fires: write_back_custom_op
present: rewrite.materialized_copy count=1 on inductor
absent: rewrite.materialized_copy on eager
absent: higher_order.auto_functionalized
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::cache_write_old__v2", mutates_args=("cache",))
def cache_write_(k: Tensor, cache: Tensor, slots: Tensor) -> None:
    for j in range(k.shape[0]):
        cache[slots[j]] = k[j]


@cache_write_.register_fake
def _(k, cache, slots):
    return None


def fn(k, cache, slots):
    old = cache[slots].clone()
    cache_write_(k, cache, slots)
    return old


def inputs():
    return torch.randn(3, 4), torch.randn(8, 4), torch.tensor([1, 5, 2])
