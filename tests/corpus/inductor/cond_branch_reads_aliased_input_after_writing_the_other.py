"""Two views of one tensor are the inputs, and a `cond` branch writes one (`x1[4, 0]`) and then
reads the other (`x2.sum()`, which holds the written element).  The dependency rule cannot thread
the write through (the inputs alias without a view in the graph) and leaves the `cond` to torch:
it reaches the post-grad graph as `auto_functionalized_v2(cond)` whose read operand `x2` overlaps
its written base.  Stock Inductor runs the branch in place and is right; aot_eager reads `x2`
before the write and is wrong.  The overlap is the program's, not a copy that noop removal merged
(fuzz p1704), so no rule copies the operand (a copy made the result aot_eager's)."""
import torch

EXPECT = """
warns: left to the compiler
not fires: copy_arguments_sharing_written_memory
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1, x2):
    def true_fn(p):
        x1[4, 0] = -1.0
        return p + x2.sum()

    def false_fn(p):
        return p.clone()

    return torch.cond(x1.sum() > -1000, true_fn, false_fn, (torch.ones(()),))


def inputs():
    base0 = torch.randint(-4, 5, (6, 4)).float()
    return base0[0:5], base0[1:6]
