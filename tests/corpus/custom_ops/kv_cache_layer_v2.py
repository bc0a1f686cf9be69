"""A KV-cache write into one layer of a stacked cache (a view of a graph input), under v2:
written back into the layer; no scatter of the layer, no copy of the cache."""
import torch
from torch import Tensor

EXPECT = """
fires: write_back_custom_op
absent: higher_order.auto_functionalized
absent: aten.select_scatter
absent: aten.copy_
matches_eager
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::cache_write_layer__v2", mutates_args=("cache",))
def cache_write_(k: Tensor, cache: Tensor, slots: Tensor) -> None:
    for j in range(k.shape[0]):
        cache[slots[j]] = k[j]


@cache_write_.register_fake
def _(k, cache, slots):
    return None


def fn(k, cache, slots):
    cache_write_(k, cache[1], slots)
    return k.sum()


def inputs():
    return torch.randn(3, 4), torch.zeros(2, 8, 4), torch.tensor([1, 5, 2])
