"""A custom op (v1) writes one element of the strided input `x0`, and a `cond` branch then writes
all of `x0` (`rewrite fuzz --seed 0` program 3443, minimized).  Functionalized, the `cond` takes
`x0`'s new value, a `slice_scatter` with `x0`'s non-dense strides in its fake value, and the copy
`o1`; Inductor compiled the branches for the scatter's strides but realized it densely, and the
branch's input check failed (stock Inductor too; aot_eager right).  The backend copies the
non-dense operand densely and freezes the dense copy `o1` as it is before the `cond`
(`rewrite/analysis/inductor/operand_layouts.py`)."""
import torch

EXPECT = """
warns: left to the compiler
present: prims.inductor_force_stride_order count=2
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::p3443_reverse_into", mutates_args=("out",))
def reverse_into(out: torch.Tensor, src: torch.Tensor) -> None:
    n = out.shape[0]
    for i in range(n):
        out[i] = src[n - 1 - i]


@reverse_into.register_fake
def _(out, src):
    return None


def fn(x0):
    o1 = x0.clone()
    reverse_into(x0.narrow(0, 1, 1)[:, 1], x0[4, 2:3])

    def true_fn(p):
        x0.add_(x0 * 3)
        return p + 1

    def false_fn(p):
        return p - 1

    torch.cond(x0.sum() > 0, true_fn, false_fn, (o1,))


def inputs():
    base0 = torch.randint(-4, 5, (5, 8)).float()
    return (base0[:, ::2],)
