"""`a @ b + c @ d`: both operands are materialized matmuls."""
import torch

EXPECT = """
fires: reinplace_dead_intermediate
matches_eager
"""
MODE = "inference"
CALLS = 2


def fn(a, b, c, d):
    return a @ b + c @ d


def inputs():
    return torch.randn(3, 4), torch.randn(4, 5), torch.randn(3, 2), torch.randn(2, 5)
