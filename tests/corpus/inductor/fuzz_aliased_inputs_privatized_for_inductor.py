"""Two inputs that overlap in one base (rows 0-2 and 2-4 of a 5x4 tensor; AOTAutograd passes the
base and takes both as `as_strided` views of it).  Inductor's reinplacing turns the first
`as_strided_scatter` into a write into the base, so the later `x0 * 3` reads the base, and Inductor
computes it lazily where the output needs it, after the copy back has overwritten the base.  The
repair gives the scatters private copies.  The judge must read the `aten.clone` packet that
Inductor's scatter decomposition emits as a clone (`rewrite fuzz --seed 0` program 201 stopped
with "stays unsafe after repairs", and privatized the same scatter on every sweep)."""
import torch

EXPECT = """
fires: privatize_for_inductor on inductor
not fires: privatize_for_inductor on eager
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    x1[1:3].copy_(x0[1:3])
    t1 = x0 * 3
    x1.mT[:, 0].mul_(2)
    t1[:, :-2][1:].copy_(t1[:, :-2][:-1].clone())
    return t1


def inputs():
    base0 = torch.randint(-4, 5, (5, 4)).float()
    return base0[0:3], base0[2:5]
