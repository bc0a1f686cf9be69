"""Two inputs are views of one buffer, `x0 = base[0:6]` and `x1 = base[1:7]`; a `cond` on `x0`
writes `x1[0]` (which is `x0[1]`) and then returns `p + 1` (`rewrite fuzz --seed 199` program
57, minimized).  `cond_captured_mutations` declines aliased inputs, and the `cond` reaches the
post-grad graph as `auto_functionalized_v2(cond, operand0=x0', _all_bases=[base'])` with `x0'` a
view of the base: the functionalized branch takes `x0` and `x1` as two inputs and reads `p` as it
was before the write.  aot_eager was wrong; stock Inductor right (its reinplacing writes `x1[0]`
in place, early in the branch, into the base the operand views, and does not clone the base);
rewrite on the eager base wrong: the operand-layout step forced the operand and the base, and a
force runs as a copy on the eager base, so the operand no longer viewed what the branch wrote.
Values of one call that share memory are now left alone (`operand_layouts._sharing_memory`); the
call compiles, and the branch reads the write as under stock Inductor."""
import torch

EXPECT = """
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    x1.add_(x1.flip(0))

    def true_fn(p):
        x1[0] = -1.0
        return p + 1

    def false_fn(p):
        return p * 0

    return torch.cond(x0.sum() > 0, true_fn, false_fn, (x0,))


def inputs():
    base0 = torch.randint(-4, 5, (7,)).float()
    return base0[0:6], base0[1:7]
