"""`x.copy_(m * x)` with a broadcast mask of another dtype: the product keeps `x`'s shape and dtype,
so `x.mul_(m)` writes the same values (`commuted_mul_into_input`)."""
import torch

EXPECT = """
fires: commuted_mul_into_input
absent: aten.mul.Tensor
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, m):
    x.copy_(m * x)


def inputs():
    return torch.arange(12.0).reshape(3, 4) - 5, torch.tensor([1.0, 0.0, 2.0, -1.0], dtype=torch.float16)
