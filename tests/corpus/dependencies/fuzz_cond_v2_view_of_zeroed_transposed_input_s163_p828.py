"""`x0.zero_()` on a transposed input, then `v1 = x0[:, 3:4].t()` is written and handed to a
`cond` whose branches write `v1` and `x0` (`rewrite fuzz --seed 163` program 828, minimized; the
false branch's `index_put_(..., accumulate=True)` made an `add_` here, since stock Inductor's CPU
code generation crashes on it: see docs/fuzz.md, p207).  The dependency rule leaves the `cond`
to the compiler (its operand's strides are its own), which wraps it in `auto_functionalized_v2`
with an `as_strided` view of its base: a `slice_scatter` of `full(...).permute(1, 0)`, the
functional stand-in for the zeroed `x0`.  The engine compared the `slice_scatter`'s layout with
`full`'s own (another order) and stopped the compile (values right, run eagerly); the storage
addresses are those of the permuted view the `slice_scatter` updates, which is laid out as the
input.  `layout_maps.operand_reading_differs` now compares with that view."""
import torch

EXPECT = """
warns: cond_captured_mutations @ rules/dependencies.rules:29 on cond failed
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


def fn(x0):
    x0.zero_()
    v1 = x0[:, 3:4].t()
    v1.copy_(v1.clone())
    def true_fn_2(p):
        v1[0, 2] = 1.0
        return p * 2
    def false_fn_2(p):
        x0[:, 0][1:2].add_(x0[2, 2:3].sin())
        return p - 1
    r2 = torch.cond(v1.sum() > 0, true_fn_2, false_fn_2, (v1,))
    return r2


def inputs():
    return (torch.randint(-4, 5, (5, 3)).float().t(),)
