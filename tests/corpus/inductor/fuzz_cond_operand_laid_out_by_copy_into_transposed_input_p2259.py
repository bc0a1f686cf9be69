"""A `cond` reads `x1 * 2` and writes the captured transposed input `x1` (`rewrite fuzz --seed 0`
program 2259, minimized).  Functionalized, the `cond` takes `x1`'s new value and `t1` as operands,
both dense in their fake values, and Inductor compiles the branches for those strides.  But it only
realizes the operands: the copy of `x1`'s new value back into the transposed input laid that value
out transposed, and the branch's input check failed (stock Inductor too; aot_eager right).  The
backend now freezes each computed operand's layout as its fake value names it before the `cond`
(`rewrite/analysis/inductor/operand_layouts.py`): no copy for a buffer whose layout was still
free, and the copy back reads the frozen buffer."""
import torch

EXPECT = """
rejects: cond_captured_mutations at rewrite because of its own
warns: left to the compiler
present: prims.inductor_force_stride_order count=2
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


def fn(x0, x1):
    x1.index_copy_(1, torch.tensor([0, 2, 3]), x1[:, 2:5].flip(0))
    t1 = x1 * 2

    def true_fn(p):
        return p.clone()

    def false_fn(p):
        x1[:2].add_(t1[:2] + 1)
        return p.clone()

    torch.cond(t1.sum() > 0, true_fn, false_fn, (x0,))


def inputs():
    base0 = torch.randint(-4, 5, (3, 6)).float()
    return base0[:, ::2], torch.randint(-4, 5, (5, 3)).float().t()
