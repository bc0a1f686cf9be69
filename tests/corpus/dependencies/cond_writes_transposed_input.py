"""A `cond` branch writes the captured input `x0`, a transposed tensor, which another `cond` then
takes as its operand.  Rewritten, the first `cond` would take `x0` as an operand written after
it: Inductor hands the branches a contiguous buffer for it while it compiled them for `x0`'s own
strides, and the branches' input checks fail ("expected size 5==5, stride 5==1", fuzz
`--seed 0 --n 5000` program 782, after the dependency began to accept operands at a storage
offset).  Written operands with strides of their own are left to torch's functionalization of
`cond`, which gets this program right."""
import torch

EXPECT = """
rejects: cond_captured_mutations at rewrite because strides
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    def true_fn_1(p):
        x0[:5].add_(-x0.t())
        return p + 1
    def false_fn_1(p):
        return p - 1
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    def true_fn_2(p):
        return p.clone()
    def false_fn_2(p):
        return p.clone()
    r2 = torch.cond(r1.sum() > 0, true_fn_2, false_fn_2, (x0,))
    return r2


def inputs():
    base0 = torch.randint(-4, 5, (6, 4)).float()
    return torch.randint(-4, 5, (5, 5)).float().t(), base0[0:4]
