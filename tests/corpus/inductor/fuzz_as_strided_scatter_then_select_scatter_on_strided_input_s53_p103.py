"""`x0.as_strided((2,), (1,), 1).index_add_(...)` on a strided input (`base[:, ::2]`), then
`x0[:, 3].zero_()` (`rewrite fuzz --seed 53` program 103, minimized).  Inductor's reinplacing
writes the `as_strided_scatter` in place into the input (stock right), but the simulation of it
gave that decision to the `select_scatter` that updates the scatter's result: the two are not
fused, and the scatter's replacement was found through its reader.  The net then took the scatter
for one Inductor writes through a contiguous clone and stopped the compile, on both bases.  The
simulation now finds a scatter's replacement by its source and view
(`reinplace._scatter_signature`): no stop, no fallback."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    c3 = x0.clone()
    x0.as_strided((2,), (1,), 1).index_add_(0, torch.tensor([1, 0, 0]), c3[0, :3])
    x0[:, 3].zero_()
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 8)).float()
    return (base0[:, ::2],)
