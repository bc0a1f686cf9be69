"""A `cond` whose false branch writes `x1` (captured), under `auto_functionalized_v2`, after
`x1.copy_(x0[4].float())` and `o4 = x1.clone()`; the program returns `o4` (`rewrite fuzz --seed
103` program 181, minimized by hand).  `cond_captured_mutations` declines (`x1` is filled from a
tensor laid out otherwise), so the `cond` stays functionalized, with the functional copy as its
base.  Noop removal drops the program's clone: the output is that base.  Stock Inductor clones
the base before the branch writes it (it is read later).  Our repair that lays out a computed
`cond` operand (`operand_layouts`) passed the base through `inductor_force_stride_order`, which
is no copy where the buffer already has its layout, while Inductor's reinplacing took it for a
tensor of its own and let the branch write it: the output came back with the branch's `3.0`.
A base read after the `cond` is now copied before its layout is forced."""
import torch

EXPECT = """
matches_eager exact
warns: cond_captured_mutations @ rules/dependencies.rules:29 on cond failed
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


def fn(x0, x1):
    x1.copy_(x0[4].to(torch.float32))
    o4 = x1.clone()
    def true_fn(p):
        return p * 2
    def false_fn(p):
        x1[0, 2] = 3.0
        return p.clone()
    torch.cond(x1.sum() > 0, true_fn, false_fn, (x1,))
    return o4.clone()


def inputs():
    return torch.tensor([1, 2, 3, 4, -2]).int(), torch.randint(-4, 5, (3, 5)).float()
