"""A sliding-window cache update, the pattern of transformers' sliding-window cache: the window
rolls by one and the newest entry goes last, then the result is copied back into the cache.  The
copy-back's value reads the cache at other positions, but it loads from two places (the rolled
cache and the new entry), so Inductor computes it into a buffer before the copy (`realize_hint`)
and stock Inductor is right: no copy is added."""
import torch

EXPECT = """
not fires: materialize_copy_back_source
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(cache, new):
    rolled = cache.roll(-1, dims=1)
    rolled[:, -1] = new
    cache.copy_(rolled)
    return cache.sum()


def inputs():
    return torch.randint(-4, 5, (2, 6, 3)).float(), torch.randint(-4, 5, (2, 3)).float()
