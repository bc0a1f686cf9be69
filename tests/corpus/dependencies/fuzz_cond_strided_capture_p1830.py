"""A `cond` branch writes a captured input laid out with strides of its own (a strided or
transposed view).  Rewritten, the `cond` would take it as an operand written after it, and
Inductor hands the branches a buffer laid out otherwise than it compiled them for: their input
checks fail (`rewrite fuzz --seed 0 --n 5000` program 1830, rewrite only, on the code of the
morning of 2026-12-01 that accepted such operands; the class of `cond_writes_transposed_input`).
The dependency leaves such operands to torch.  With dynamic shapes torch's own handling gets this
program wrong (stock Inductor and rewrite alike: two elements of the input keep old values), so
the case runs with static shapes; see the closing note of 2026-12-01.  The branch reads its
operand `p` (`x1` itself) after writing `o1`, which functionalized it reads as it was before the
write; here its result is never read, so the call compiles (fuzz seed 197 p55 and seed 199 p57
read it, and stop: `stale_reads`)."""
import torch

EXPECT = """
rejects: cond_captured_mutations at rewrite because strides
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x1):
    o1 = x1[:, 2]
    o1.narrow(0, 1, 2).mul_(x1[0, 2:4].flip(0).clamp(-2, 2))
    def true_fn_2(p):
        o1[1] = 3.0
        return p.clone()
    def false_fn_2(p):
        return p * 0
    r2 = torch.cond(x1.sum() > 0, true_fn_2, false_fn_2, (x1,))
    x1.transpose(0, 1)[:, 3].fill_(2.0)
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 8)).float()
    return (base0[:, ::2],)
