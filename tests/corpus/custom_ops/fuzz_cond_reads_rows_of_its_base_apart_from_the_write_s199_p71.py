"""A `cond` branch writes `v1 = x0[3:-1]` (a captured view of `x0`) and `x2[2:4]` (an input
viewing another buffer, `x1 = base[0:4]`, `x2 = base[3:7]`), reading `x0[1:3]` after the first
write (`rewrite fuzz --seed 199` program 71, minimized; v2).  The `cond` reaches the post-grad graph
as `auto_functionalized_v2` with `x0` both a read operand and the base of `v1`: the branch reads
`x0` after writing the base, which `stale_reads` stops where the elements can meet.  Here they
cannot (rows 1-2 against row 3): replayed on the base's fake value, the regions of the read and
the write are proven apart (exactly with static shapes, symbolically with dynamic ones), so the
call compiles (it ran eagerly; stock Inductor right)."""
import torch

EXPECT = """
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


def fn(x0, x1, x2):
    v1 = x0[3:-1]

    def true_fn(p):
        v1[0] = -1.0
        x2[2:4].add_(x0[1:3])
        return p * 2

    def false_fn(p):
        return p * 0

    r = torch.cond(x0.sum() > 0, true_fn, false_fn, (x1,))
    return r


def inputs():
    base0 = torch.randint(-4, 5, (7,)).float()
    return torch.randint(-4, 5, (5,)).float(), base0[0:4], base0[3:7]
