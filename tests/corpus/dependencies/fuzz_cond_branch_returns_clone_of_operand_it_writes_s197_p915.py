"""A `cond` branch writes the captured `x0` and returns `p.clone()` of its operand, `x0` itself;
the program then writes the `cond`'s result (`rewrite fuzz --seed 197` program 915, minimized).
`cond_captured_mutations` gives the branches a copy of `x0` and returns it flat; the branch's
`p` is that copy, so it returned `clone(state)` and `state.view(-1)`.  Inductor's noop removal
dropped the clone: both results were one buffer, the scatter of `r1[:, 1:] = ...` was written in
place into it, and the copy back into `x0` read the scattered values (the Inductor base wrong,
static and dynamic; stock, the eager base and aot_eager right).  A branch's clone of its state
is now a copy no pass removes (the copy the program asked for)."""
import torch

EXPECT = """
fires: cond_captured_mutations
present: rewrite.materialized_copy
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    def true_fn_1(p):
        return p * 2

    def false_fn_1(p):
        x0[:].add_(-1.0)
        return p.clone()

    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x0,))
    r1[:, 1:] = x0[:, :4]
    return r1


def inputs():
    return (torch.arange(15.0).reshape(3, 5) - 20.0,)      # sum < 0: the branch that writes
