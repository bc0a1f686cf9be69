"""A custom op writes `x0` from `x1`, then `return x1.clone().clone()`, with `x0, x1` two
overlapping views of one base (`rewrite fuzz --seed 0` program 358, v2).  Noop removal drops both
clones, so the graph returns a view of the new base the v2 call returns; `write_back_custom_op`
is refused (the output would be the input's memory), but Inductor's reinplacing writes the base
in place anyway, and the output came back aliasing both inputs (stock wrong, aot_eager right).
The simulation now reads Inductor's decision for the call (`only_clone_these_tensors`) and
models the in-place write; the decision is wrong, so the call writes a private copy of the base
(the clone the program asked for); the op then writes that copy in place, and reads a copy of
`x1`, which overlaps what it writes."""
import torch
from torch import Tensor

EXPECT = """
fires: privatize_custom_op_for_inductor
present: rewrite.materialized_copy count=2
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::p358_write_rows", mutates_args=("x",))
def write_rows(x: Tensor, y: Tensor) -> Tensor:
    old = x.clone()
    for i in range(x.shape[0]):
        x[i] = y[i % y.shape[0]] * 2 - x[i]
    return old


@write_rows.register_fake
def _(x, y):
    return torch.empty_like(x)


def fn(x0, x1):
    write_rows(x0, x1)
    c = x1.clone()
    return c.clone()


def inputs():
    base0 = torch.randint(-4, 5, (7, 5)).float()
    return base0[0:4], base0[3:7]
