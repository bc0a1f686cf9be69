"""A `cond` branch writes `t1 = x0.clone()`, where `x0` is a view at storage offset 2.  Once the
dependency returns `t1` from the branches, nothing writes it inside them, and Inductor's passes
drop the clone: the branches then scatter into `x0` itself, and `slice_scatter` keeps the
operand's storage offset (2) while the other branch's copy has 0, which `cond` cannot merge.
The action looks through plain copies for such layouts and leaves the op to torch
(`rewrite fuzz --seed 0 --n 1500` program 477)."""
import torch

EXPECT = """
rejects: cond_captured_mutations at rewrite because is a copy of
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0):
    t1 = x0.clone()
    def true_fn_2(p):
        t1[5:6].add_(0.5)
        return p * 2
    def false_fn_2(p):
        return p - 1
    r2 = torch.cond(t1.sum() > 0, true_fn_2, false_fn_2, (x0,))
    v4 = r2.view(torch.int32)
    return v4


def inputs():
    base0 = torch.randint(-4, 5, (10,)).float()
    return (base0[2:],)
