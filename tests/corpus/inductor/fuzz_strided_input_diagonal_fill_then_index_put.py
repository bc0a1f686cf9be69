"""A column-strided input (`base[:, ::2]`) whose diagonal is filled in place, and an intermediate
(`x.tanh()`) updated through `diagonal(-1).narrow(...)` with `index_put_` after a row of it was
read.  No reinplacing rule applies; Inductor's own decisions must be judged right (the judge
once read the `aten.clone` packet of Inductor's scatter decomposition as an unknown op and
stopped the compilation: `rewrite fuzz --seed 0` program 79)."""
import torch

EXPECT = """
not fires: privatize_for_inductor
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    t1 = x0.tanh()
    x0.diagonal().masked_fill_(x0.diagonal() > -1, 0.5)
    v3 = t1[:, :2][2]
    t1.diagonal(-1).narrow(0, 0, 2).index_put_((torch.tensor([0, 1]),), torch.tensor(3.0, dtype=torch.float32))
    return v3


def inputs():
    base0 = torch.randint(-4, 5, (5, 6)).float()
    return (base0[:, ::2],)
