"""A `cond` branch writes the captured `x0`, takes `c = p.clone()` of its operand (`x0` itself),
writes `c` in place and returns it; the program then writes the result.  The twin of seed 197
p915's case: there the branch's clone of its state is returned as it is and becomes a copy no
pass removes; here the clone is written after, so it is left as it is (replacing it by a copy of
the state lost `c.add_(5.0)`, on both bases, while the replacement was being written)."""
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
    def true_fn(p):
        return p * 2

    def false_fn(p):
        x0[:].add_(-1.0)
        c = p.clone()
        c.add_(5.0)
        return c

    r1 = torch.cond(x0.sum() > 0, true_fn, false_fn, (x0,))
    r1[:, 1:] = x0[:, :4]
    return r1


def inputs():
    return (torch.arange(15.0).reshape(3, 5) - 20.0,)      # sum < 0: the branch that writes
