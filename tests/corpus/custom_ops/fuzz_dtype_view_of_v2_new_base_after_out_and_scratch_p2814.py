"""A custom op writes `out` (`x0[5:7:2]`) and `scratch` (a row range of the transposed input
`x1`) and reads `x0[4:5]`; then `x0.view(torch.int32).index_put_(..., accumulate=True)`
(`rewrite fuzz --seed 0` program 2814, minimized).  The simulation of Inductor's reinplacing
judged its in-place run wrong: an unknown view (the int32 view) of the v2 call's new base was
keyed by its node's argument names, and the simulation reads the input the call wrote in place
instead (another name, the same value); past that, by the in-place `index_put_` Inductor makes,
whose result is its argument itself.  The net then stopped (it cannot give a base addressed by
`as_strided` a private copy) and the graph fell back to aot_eager on both bases, where the
rules-free pipeline compiles it right.  An unknown view is now keyed by its path from its root
(each step's op and arguments but the viewed tensor, in-place results skipped): the graph
compiles on both bases (no fallback warning), right where stock Inductor is wrong."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("fuzz::p2814_op2_6a7cc309", mutates_args=("out", "scratch"))
def op2(out: torch.Tensor, scratch: torch.Tensor, x: torch.Tensor) -> None:
    n = out.shape[0]
    for i in range(n):
        scratch[i] = x[n - 1 - i]
    for i in range(n):
        out[i] = scratch[i] + x[i]


@op2.register_fake
def _op2_fake(out, scratch, x):
    return None


def fn(x0, x1):
    op2(x0[5:7:2], x1[2, 4:5], x0[4:5])
    x0.view(torch.int32).index_put_((torch.tensor([0, 3, 0]),), torch.tensor(2, dtype=torch.int32), accumulate=True)
    return None


def inputs():
    base0 = torch.randint(-4, 5, (9,)).float()
    base1 = torch.randint(-4, 5, (5, 5)).float()
    return base0[2:], base1.t()
