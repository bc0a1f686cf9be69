"""`x1.view(torch.int32)[6].sub_(-1)` on a float input: written back through the int32 view, the
update makes Inductor store the int value converted to float (3.0 became 1077936128.0) instead of
its bits.  The lowering model calls a write through a view of another dtype a hazard no copy can
repair, so the rewrite is refused and the scatter stays functional, which Inductor lowers right
(`rewrite fuzz --seed 0 --n 1500` program 1107, through Inductor)."""
import torch

EXPECT = """
rejects: reinplace_scatter_into_view_of_input at rewrite because a view of another dtype on inductor
rejects: reinplace_scatter_into_view_of_input at legality on eager
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    x1.view(torch.int32)[6].sub_(-1)
    return x0


def inputs():
    base0 = torch.randint(-4, 5, (14,)).float()
    return torch.randint(-4, 5, (4,)), base0[0:7]
