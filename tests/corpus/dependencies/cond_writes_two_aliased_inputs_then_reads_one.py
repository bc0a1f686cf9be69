"""Two inputs are views of one buffer, `x0 = base[0:6]` and `x1 = base[1:7]`; a `cond` branch
writes `x0[1]` (which is `x1[0]`) and then `x1.add_(1.0)`, which reads it.  Functionalized, the
branch updates each from its own old value and copies both back, so the first write is lost
(aot_eager, stock Inductor and both bases of rewrite were wrong; stock also read the operand, a
clone of `x0`, after the write).  Both are written operands of one base, and `x1`'s whole new
value is copied back over `x0`'s memory: the graph stops (`stale_reads`) and runs eagerly."""
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
        x0[1] = 5.0
        x1.add_(1.0)
        return p * 2

    def false_fn(p):
        return p * 0

    return torch.cond(x0.sum() > -100, true_fn, false_fn, (x0.clone(),))


def inputs():
    base0 = torch.randint(-4, 5, (7,)).float()
    return base0[0:6], base0[1:7]
