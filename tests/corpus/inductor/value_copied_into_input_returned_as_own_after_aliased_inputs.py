"""The negative twin of `fuzz_cond_writes_captured_input_returned_after_aliased_inputs_s71_p209`:
the program returns the value it copies into an input (`y = x2 * 2; x2.copy_(y); return y`),
after two aliased inputs that AOTAutograd merges into a synthetic base.  The output is a tensor
of its own (AOTAutograd calls it `non_alias`), not an alias it regenerates from `x2`, so the net
under the repair rules must not return `x2` for it: the caller's result would share the
argument's memory."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1, x2):
    x1.add_(x0[0, 1:])
    y = x2 * 2
    x2.copy_(y)
    return y


def inputs():
    base0 = torch.randint(-4, 5, (3, 4)).float()
    base1 = torch.randint(-4, 5, (4, 3, 4)).float()
    return base0, base0[:, 1], base1[1:3]
