"""The `while_loop` twin of `fuzz_cond_writes_captured_input_returned_after_aliased_inputs_s71_p209`
(found while minimizing that fuzz program): the body writes a captured input at a storage offset,
and the program returns it, after two aliased inputs.  AOTAutograd regenerates the returned input
from itself with the graph output's layout, and `while_loop_captured_mutations` makes that output
the loop's carried copy, at offset 0: the caller got rows of `base1[0:2]` on the Inductor base.
Stock Inductor is wrong here too (the mutation of the captured input is lost), aot_eager right.
The net under the repair rules returns the input itself after the copy into it."""
import torch

EXPECT = """
matches_eager exact
fires: while_loop_captured_mutations
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1, x2):
    x1.add_(x0[0, 1:])
    def cond_fn(i):
        return i < 2
    def body_fn(i):
        x2[1, 1:].add_(1.0)
        return (i + 1,)
    torch._higher_order_ops.while_loop(cond_fn, body_fn, (torch.tensor(0),))
    return x2


def inputs():
    base0 = torch.randint(-4, 5, (3, 4)).float()
    base1 = torch.randint(-4, 5, (4, 3, 4)).float()
    return base0, base0[:, 1], base1[1:3]
