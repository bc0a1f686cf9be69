"""The twin of `inductor/fuzz_cond_reads_aliased_input_its_branch_writes_s199_p57.py` that must
compile: the branch reads `p` (`x0`, sharing memory with `x1`) before it writes `x1[0]`, which
the functionalized branch reads alike, so `stale_reads` finds nothing and the graph is not sent
to run eagerly (no "runs eagerly instead" warning: the runner fails a case on a warning it does
not expect)."""
import torch

EXPECT = """
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    x1.add_(x1.flip(0))

    def true_fn(p):
        r = p + 1
        x1[0] = -1.0
        return r

    def false_fn(p):
        return p * 0

    return torch.cond(x0.sum() > 0, true_fn, false_fn, (x0,))


def inputs():
    base0 = torch.randint(-4, 5, (7,)).float()
    return base0[0:6], base0[1:7]
