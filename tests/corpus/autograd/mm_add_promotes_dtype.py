"""`(a @ b) + c` with c float64: the result's dtype differs from the matmul's."""
import torch

EXPECT = """
rejects: reinplace_dead_intermediate at safe
not fires: reinplace_dead_intermediate
matches_eager
"""
MODE = "inference"
CALLS = 2


def fn(a, b, c):
    return (a @ b) + c


def inputs():
    return torch.randn(4, 5), torch.randn(5, 3), torch.randn(4, 3, dtype=torch.float64)
