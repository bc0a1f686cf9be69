"""A `cond` writes `x0.mT[:, 2]` after `x0.transpose(0, 1)[:, 1:] = ...` (`rewrite fuzz --seed
173` program 604, minimized).  The dependency rule leaves the `cond` to the compiler (its operand
is written through a transposed view), which wraps it in `auto_functionalized_v2` with an
`as_strided` view of its base: `permute(slice_scatter(permute(x0')))`, the functional stand-in for
`x0`.  The `slice_scatter` is laid out transposed, so the engine stopped the compile (values
right, run eagerly; stock Inductor compiled it right).  Its permute, which the call's views are
regenerated from, holds `x0`'s elements laid out as `x0` is, at storage addresses that name the
same elements: `layout_maps._operand_laid_out_as_memory` now accepts it."""
import torch

EXPECT = """
warns: cond_captured_mutations @ rules/dependencies.rules:29 on cond failed
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    t1 = x0 * 3
    x0.diagonal().add_(t1[2].flip(0))
    x0.transpose(0, 1)[:, 1:] = x0.transpose(0, 1)[:, :-1].clone()
    def true_fn(p):
        x0.mT[:, 2][x0.mT[:, 2] > -1] = 1.0
        return p * 2
    def false_fn(p):
        return p.clone()
    r = torch.cond(x0.sum() > 0, true_fn, false_fn, (t1,))
    return r


def inputs():
    return (torch.randint(-4, 5, (3, 3)).float(),)
