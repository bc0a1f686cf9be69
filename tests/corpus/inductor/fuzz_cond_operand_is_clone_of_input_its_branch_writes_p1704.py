"""`t2 = x3.clone()` is the operand of a `cond` whose true branch writes the captured `x3` and
returns `t2 + 1` (`rewrite fuzz --seed 0` program 1704, minimized).  The branch also writes the
transposed input `x1`, so the `cond_captured_mutations` rewrite is refused and the `cond` reaches
the post-grad graph as `auto_functionalized_v2(cond, operand0=t2, _all_bases=[x1, x3])`.  Inductor's
noop removal dropped the clone (`operand0=x3`, the memory of base 1), and its reinplacing then ran
the branch on `x3` itself: the branch read `p` after writing `x3[0, 1, 2]`.  Stock Inductor and the
rules-free pipeline were wrong on both bases, aot_eager right.  The rule that copies a call's read
argument sharing memory with what it writes now reads a higher-order op's v2 call too: the operand
gets a copy no pass removes (no more than the clone the program made)."""
import torch

EXPECT = """
rejects: cond_captured_mutations at rewrite because of its own
warns: left to the compiler
fires: copy_arguments_sharing_written_memory
present: rewrite.materialized_copy count=1
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1, x3):
    t2 = x3.clone()

    def true_fn(p):
        x1[4, 2] = 2.0
        x3[0, 1, 2] = -2.0
        return p + 1

    def false_fn(p):
        return p.clone()

    return torch.cond(t2.sum() > 0, true_fn, false_fn, (t2,))


def inputs():
    base0 = torch.randint(-4, 5, (5, 5)).float()
    base1 = torch.randint(-4, 5, (4, 2, 4)).float()
    return base0.t(), base1[1:3]
