"""A custom op writes a list of two views of one input, `[x0[:1], x0[1:]]`, each from the other,
then `x0.neg_()` (`rewrite fuzz --seed 0` program 962, v1, dynamic shapes).  Stock Inductor is
wrong here (aot_eager is right).  `write_back_custom_op` calls the op on the views themselves,
which is right, but it was refused under symbolic shapes: the overlap analysis could not prove
`x0[:1]` and `x0[1:]` disjoint, because `x0[1:]` has `s0 - 1` rows, which may be 0.  A proof of
disjointness may now assume every size is at least 1 (an empty region shares nothing)."""
import torch
from torch import Tensor

EXPECT = """
fires: write_back_custom_op
absent: aten.slice_scatter
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::p962_add_previous", mutates_args=("xs",))
def add_previous(xs: list[Tensor]) -> None:
    for j, t in enumerate(xs):
        p = xs[j - 1].flatten()
        for i in range(t.shape[0]):
            t[i] = t[i] + p[i % p.numel()]


@add_previous.register_fake
def _(xs):
    return None


def fn(x0):
    add_previous([x0[:1], x0[1:]])
    x0.neg_()


def inputs():
    return (torch.randint(-4, 5, (5, 5)),)
