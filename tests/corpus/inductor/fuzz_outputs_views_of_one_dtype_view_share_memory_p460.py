"""Two outputs are pieces of one `cat`, written whole through an int32 view first
(`rewrite fuzz --seed 0` program 460, minimized; with auto_functionalized v2 in the fuzz run, no
custom op).  Eagerly they are views of one tensor and share its memory.  Inductor lowers the
float32 view of the int32 sum as a view of a value it has not computed into a buffer, and
computes it once for each output: the outputs came back as tensors of their own, under stock
Inductor and rewrite alike (values right; aot_eager right).  `share_dtype_viewed_outputs_for_inductor`
computes the value into a buffer first, so that the dtype view and the outputs are views of it."""
import torch

EXPECT = """
fires: share_dtype_viewed_outputs_for_inductor on inductor
not fires: share_dtype_viewed_outputs_for_inductor on eager
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    t1 = torch.cat((x0, x0 * 2, x0 + 1), 0)
    a2, b2, c2 = t1.split(3, 0)
    t1.view(torch.int32).view(-1).add_(1)
    return c2, a2


def inputs():
    return (torch.randint(-4, 5, (3, 4)).float(),)
