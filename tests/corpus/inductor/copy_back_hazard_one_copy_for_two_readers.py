"""`x.mul_(x.flip(0).clamp(-2, 2)); x[5:6].add_(1.0)` on a strided input (from fuzz seed 67
p207): Inductor would copy the result into `x` in one loop that also computes it, reading `x`
(directly and flipped) at elements the loop has already written.  `materialize_copy_back_source` copies what is read
first; both readers read the same value of `x` before the copy-back, so they share one copy,
taken where `x` is defined (before, each reader got its own: two copies of `x`)."""
import torch

EXPECT = """
fires: materialize_copy_back_source on inductor
not fires: materialize_copy_back_source on eager
present: rewrite.materialized_copy count=1 on inductor
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    x0.mul_(x0.flip(0).clamp(-2, 2))
    x0[5:6].add_(1.0)
    return None


def inputs():
    return (torch.randint(-4, 5, (14,)).float()[::2],)
