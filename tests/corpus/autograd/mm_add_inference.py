"""`a @ b + c` in inference: the matmul result is materialized anyway and dead
after the add, so the add writes into it."""
import torch

EXPECT = """
fires: reinplace_dead_intermediate
matches_eager
inductor
"""
MODE = "inference"
CALLS = 2


def fn(a, b, c):
    return a @ b + c


def inputs():
    return torch.randn(4, 5), torch.randn(5, 3), torch.randn(4, 3)
