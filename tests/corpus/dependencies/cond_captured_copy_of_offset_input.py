"""A `cond` branch writes `t1 = x0.clone()`, where `x0` is a view at storage offset 2.  Once the
dependency returns `t1` from the branches, nothing writes it inside them, and Inductor's passes
drop the clone: the operand is then `x0` itself, at offset 2.  Each branch works on a copy of the
operand that no pass drops (`rewrite::materialized_copy` of it made contiguous), so both return
results at offset 0 that `cond` merges.  (Until fuzz p3501 the branch copy was a `clone`, which
Inductor dropped too; a `slice_scatter` then kept offset 2 against the other branch's 0 and the
action declined such operands: `rewrite fuzz --seed 0 --n 1500` program 477.)"""
import torch

EXPECT = """
fires: cond_captured_mutations
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


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
