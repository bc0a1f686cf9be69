"""The written operand is a view at a storage offset (the caller passed `base[-1]`).  Each branch
works on a contiguous copy of it (`rewrite::materialized_copy`), so both return results at
offset 0 that `cond` merges, and the copy-back writes the view.  (Until fuzz p3501 the branch
copy was a `clone` Inductor could drop: a branch that wrote the view then yielded a result laid
out like it, the other a fresh copy, Inductor could not merge the two, and the dependency
declined and left the op to torch: `rewrite fuzz`, seed 0 program 214.)"""
import torch

EXPECT = """
fires: cond_captured_mutations
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    def true_fn(p):
        x1[1, 1] = 3.0
        return p + 1
    def false_fn(p):
        return p * 0
    return torch.cond(x0.sum() > 0, true_fn, false_fn, (x1,))


def inputs():
    base = torch.arange(12.0).reshape(2, 2, 3) - 5
    return base, base[-1]
