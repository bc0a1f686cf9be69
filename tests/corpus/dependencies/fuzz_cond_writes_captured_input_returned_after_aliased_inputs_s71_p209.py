"""A `cond` branch writes a captured input at a storage offset (`x2 = base1[1:3]`), and the
program returns that input, after two aliased inputs (`rewrite fuzz --seed 71` program 209,
minimized further by hand).  AOTAutograd merges the aliased inputs into one synthetic base, which
renumbers the inputs, and the renumbering turns "the output is input `x2`" into "the output is an
alias of `x2`", regenerated from `x2` with the graph output's own layout (it has no views to
replay).  `cond_captured_mutations` returns the new `x2` from the branches: the graph's output is
then the branch's copy, at offset 0, and the caller got `x2`'s storage at offset 0 (rows of
`base1[0:2]`), on both bases.  Stock is right by luck (`auto_functionalized_v2` clones the base
keeping its storage offset).  The net under the repair rules now returns the input itself after
the copy into it (`earlier_passes.regenerated_outputs`).  Under dynamic shapes Dynamo itself fails
on the `cond` (a `KeyError` on a size expression, stock too), so the case runs with static shapes
only."""
import torch

EXPECT = """
matches_eager exact
fires: cond_captured_mutations
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2):
    x1.add_(x0[0, 1:])
    def true_fn(p):
        return p * 2
    def false_fn(p):
        x2[1, 1:].add_(1.0)
        return p.clone()
    torch.cond(x1.sum() > 0, true_fn, false_fn, (x2,))
    return x2


def inputs():
    base0 = torch.randint(-4, 5, (3, 4)).float()
    base1 = torch.randint(-4, 5, (4, 3, 4)).float()
    return base0, base0[:, 1], base1[1:3]
