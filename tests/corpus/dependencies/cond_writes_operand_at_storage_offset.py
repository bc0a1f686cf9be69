"""A `cond` branch writes elements of the operand it was passed, a view at storage offset 12.  The
dependency returns it from both branches, each of which works on a contiguous copy at offset 0
(`rewrite::materialized_copy`), so the results merge.  The reinplacing rules must not write the
branch's scatter into its input: the branch would return its own input (offset 12) where the
other returns a fresh tensor.  The legality check refuses any rewrite that changes which memory
an output is (`rewrite fuzz --seed 0 --n 1500` program 714, when the dependency still declined
such operands and left the op to torch)."""
import torch

EXPECT = """
fires: cond_captured_mutations
not fires: reinplace_update_into_input
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1):
    def true_fn_1(p):
        x1[1, 1, 0] = 0.5
        x1[0, 0, 1] = 1.0
        return p.clone()
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 2, 3)).float()
    return (base0[2:],)
