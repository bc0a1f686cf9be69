"""A custom op writes `[x2, x1]` with `x1 = base[1:3]` (an input at storage offset 1), after an
update of `x2` and a clone of its first row (`rewrite fuzz --seed 0` program 1557, v1).  Stock
Inductor is wrong here (aot_eager is right).  `copy_inputs_a_call_writes` gives the call a copy of
`x1`, but the call kept the example values of its arguments as traced
(`meta["eager_input_vals"]`), from which Inductor's decomposition clones: it cloned the copy as if
it sat at storage offset 1 ("setStorage ... out of bounds" on the eager base).  A rewired call's
new arguments now get their own example values."""
import torch
from torch import Tensor

EXPECT = """
fires: copy_inputs_a_call_writes
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::p1557_add_previous", mutates_args=("xs",))
def add_previous(xs: list[Tensor]) -> None:
    for j, t in enumerate(xs):
        p = xs[j - 1].flatten()
        for i in range(t.shape[0]):
            t[i] = t[i] + p[i % p.numel()]


@add_previous.register_fake
def _(xs):
    return None


def fn(x1, x2):
    x2[:, 2:4].add_(x2[:, 2:4].flip(1))
    o2 = x2[0].clone()
    add_previous([x2, x1])
    return o2


def inputs():
    base0 = torch.randint(-4, 5, (5,)).float()
    return base0[1:3], torch.randint(-4, 5, (5, 4)).float()
