"""Found by `rewrite fuzz --seed 0 --n 3200 --base both` (program 205): both on base eager.

rewrite-eager: raised on call 1: RuntimeError: as_strided_scatter: sizes [5], strides [2],
    storage offset 1  and itemsize 4 requiring a storage size of 40 are out of bounds for
    storage of size 24
pipeline-eager: raised on call 1: RuntimeError: as_strided_scatter: sizes [5], strides [2],
    storage offset 1  and itemsize 4 requiring a storage size of 40 are out of bounds for
    storage of size 24
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0):
    o1 = x0.clone()
    x0.as_strided((5,), (2,), 1).index_put_((torch.tensor([2, 1]),), o1[2:4])
    return None


def inputs():
    return (torch.randint(-4, 5, (12,)).float()[::2],)
