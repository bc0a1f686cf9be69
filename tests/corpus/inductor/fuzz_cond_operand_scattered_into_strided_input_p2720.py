"""A `cond` branch writes the captured strided input `x1` (every other column of a buffer), which the
program wrote before the `cond` (`rewrite fuzz --seed 0` program 2720, minimized).  Functionalized,
the `cond` takes `x1`'s new value, a `slice_scatter` whose fake value has `x1`'s non-dense strides
(10, 2), and Inductor compiles the branches for those strides; but it only realizes the operand, as
a dense buffer, and the branch's input check failed on the first call (stock Inductor too;
aot_eager right).  The backend now copies such an operand densely and freezes that layout before
the `cond` (`rewrite/analysis/inductor/operand_layouts.py`, the requirement Inductor makes of a
`while_loop`'s inputs).  The dependency leaves the strided input to torch's own functionalization
of the `cond`, as before."""
import torch

EXPECT = """
rejects: cond_captured_mutations at rewrite because of its own
warns: left to the compiler
present: prims.inductor_force_stride_order count=1
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1):
    o1 = x1.clone()
    x1[:, 3::2] = 2.0

    def true_fn(p):
        return p + 1

    def false_fn(p):
        x1[1:].add_(-1.0)
        return p * 0

    torch.cond(o1.sum() > 0, true_fn, false_fn, (x1,))


def inputs():
    base0 = torch.randint(-4, 5, (4, 10)).float()
    return (base0[:, ::2],)
