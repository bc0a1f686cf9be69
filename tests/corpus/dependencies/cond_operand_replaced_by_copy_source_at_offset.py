"""Two disjoint views of one base come in; a `cond` writes a captured element of the second, the
program copies the second into the first (`x0.copy_(x1)`), and another `cond` writes an element
of the first.  The second `cond` is rewritten: each branch returns the written operand.
Inductor's joint passes then drop the full copy as a no-op, so the operand is `x1`'s new value
laid out at storage offset 5; the branch that writes it with a scatter returned a result at
offset 5 once Inductor had also dropped the branch's own `clone` (unused as such), the other
branch a contiguous copy, and `cond`'s merge failed ("expected same storage_offset but got 0 and
5", fuzz `--seed 0 --n 5000` program 3501, rewrite only).  The branch copy is now
`rewrite::materialized_copy`, which no pass drops.  The first `cond` cannot be rewritten (its
operands are disjoint parts of one tensor) and is left to torch's functionalization."""
import torch

EXPECT = """
fires: cond_captured_mutations
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    x1[:-1] = x1[1:].clone()
    def true_fn_2(p):
        return p + 1
    def false_fn_2(p):
        x1[2:3:2].add_(x0[:1])
        return p - 1
    r2 = torch.cond(x1.sum() > 0, true_fn_2, false_fn_2, (x1,))
    x0.copy_(x1)
    def true_fn_3(p):
        return p + 1
    def false_fn_3(p):
        x0[0] = -1.0
        return p - 1
    r3 = torch.cond(x0.sum() > 0, true_fn_3, false_fn_3, (r2,))
    return r3


def inputs():
    base0 = torch.randint(-4, 5, (10,)).float()
    return base0[0:5], base0[5:]
