"""Two inputs are views of one buffer, `x0 = base[0:6]` and `x1 = base[1:7]`; a `cond` on `x0`
adds to all of `x1` and then reads `p` (`x0`) whole.  Functionalized, the branch computes
`x1 + 1` as a new value that only its epilogue writes back, and reads `p` before that: aot_eager
and stock Inductor are wrong (found by a review of the seed 199 p57 fix, whose scattered write
`x1[0] = -1.0` is written in place where it is made).  An operand that views a written base is
read stale against such a whole new value (`stale_reads`), and the graph runs eagerly."""
import torch

EXPECT = """
warns: left to the compiler
warns: runs eagerly instead
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    def true_fn(p):
        x1.add_(1.0)
        return p.sum(0, keepdim=True)

    def false_fn(p):
        return p.sum(0, keepdim=True) * 0

    return torch.cond(x0.sum() > -100, true_fn, false_fn, (x0,))


def inputs():
    base0 = torch.randint(-4, 5, (7,)).float()
    return base0[0:6], base0[1:7]
