"""A `cond` branch writes a captured tensor through its transpose, `x0.mT.index_copy_(...)`, and
returns `p.clone()` of it (`rewrite fuzz --seed 193` program 462, minimized by hand).
`cond_captured_mutations` gives the branches a private copy of `x0` and returns it flat.  While
AOTAutograd traces the branch, functionalization makes the copy's new value the transpose's
inverse, laid out transposed behind a wrapper that still says contiguous: `view(-1)` of it raised
and the graph ran eagerly (stock Inductor right).  The branch that writes through a reordering
view now flattens a contiguous clone of the state, and a result that is contiguous eagerly is
returned `contiguous()` (`p.clone()` came out transposed, and `cond` refused to merge it with
the other branch's)."""
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
        x0[3:4].add_(-1)
        return p.clone()

    def false_fn(p):
        x0.mT.index_copy_(0, torch.tensor([4, 2, 3]), x0[1:4].clone())
        return p.clone()

    return torch.cond(x1.sum() > 0, true_fn, false_fn, (x0,))


def inputs():
    return torch.randint(-4, 5, (5, 5)), torch.full((2, 2, 3), -1.0)      # the branch that writes through .mT
