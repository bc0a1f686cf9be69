"""The loop's captured tensors share memory because the caller passed a tensor and a view of it
(`f(base, base[0])`): `cond_fn` writes through one, the body reads the other.  The graph shows no
view between them, so threading the written one through the loop would leave the other reading
stale values: the dependency declines (`fallback compiler`), and torch's own handling of aliased
inputs (AOTAutograd's synthetic base) keeps the program right."""
import torch

EXPECT = """
rejects: while_loop_captured_mutations at rewrite because share memory without a view
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    def cond_fn(i, acc):
        x0[0].add_(1.0)
        return i < 2
    def body_fn(i, acc):
        return i + 1, acc + x1.sum()
    i, acc = torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return acc


def inputs():
    base = torch.arange(15.0).reshape(3, 5)
    return base, base[0]
