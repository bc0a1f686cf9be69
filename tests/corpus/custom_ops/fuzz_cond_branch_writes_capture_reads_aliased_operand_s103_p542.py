"""A `cond` over `x0` whose branch writes captured `x1` and then returns `p.clone()`, where the
inputs overlap (`x0 = base0[0:5]`, `x1 = base0[2:7]`), and `x1` is written again after the
`cond` (`rewrite fuzz --seed 103` program 542, minimized by hand).  `cond_captured_mutations`
declines (the operands share memory), so the `cond` stays under `auto_functionalized_v2`: `x1`
regenerated from the synthetic base, `x0` passed as it is.  The branch's clone reads, through
`x0`, rows the branch wrote through `x1`.  `copy_inputs_a_call_writes` gave the call a private
copy of the base, since what is copied back into it comes from the later write: the branch
then wrote the copy, and `x0` still viewed the input, so the clone missed the branch's writes.
A base that an argument the call only reads shares memory with is no longer copied.  Stock
Inductor right, aot_eager wrong."""
import torch

EXPECT = """
matches_eager exact
warns: cond_captured_mutations @ rules/dependencies.rules:29 on cond failed
not fires: copy_inputs_a_call_writes
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    def true_fn(p):
        x1[1:4].add_(3.0)
        return p.clone()
    def false_fn(p):
        return p * 0
    r = torch.cond(x0.sum() > 0, true_fn, false_fn, (x0,))
    x1.add_(1.0)
    return r


def inputs():
    base0 = torch.arange(35.0).reshape(7, 5)
    return base0[0:5], base0[2:7]
