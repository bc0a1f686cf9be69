"""An input at storage offset 2 is written through a dtype view of a slice and one element is
copied to another; then `x0.as_strided((5,), (1,), 3)` (absolute storage offset: elements 1..5 of
`x0`) is negated bitwise at its first element (`rewrite fuzz --seed 43` program 0, minimized).
The functional graph reads the `as_strided` off the `select_scatter` that stands for `x0`, which
means the program's elements only where Inductor writes the slice and select scatters in place
into `x0`.  Its reinplacing would not, so the scatter's result is a buffer of its own at offset 0,
and both stock Inductor and the rules-free eager pipeline negated element 3 instead of element 1
(aot_eager right: ATen's scatters keep the input's storage offset).  No rule fires (the graph's
functional reading is not the program's), and the engine stops the compile
(`reinplace.storage_addressed_write_lost`, now asked of reads as well as of `as_strided_scatter`):
the graph runs eagerly, and says so."""
import torch

EXPECT = """
warns: the functional form addresses other elements than the program did
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    x0.narrow(0, 4, 4).view(torch.int32).add_((x1[2:6] * 2).to(torch.int32))
    x0[1].copy_(x0[6])
    v1 = x0.as_strided((5,), (1,), 3)
    v1.view(torch.int32)[0].mul_(-1)
    return None


def inputs():
    base0 = torch.randint(-4, 5, (10,)).float()
    base1 = torch.randint(-4, 5, (10,)).float()
    return base0[2:], base1[1:8]
