"""An input at storage offset 12 (`base[3:7]`): after `x[1:4][:, 2:] = x[:3, :2]` the rule
writes in place, and the views the program took of the scattered value (`x[0]`, `x[:, 1]`) are
now views of the input.  Their fake values still described the scatter's own buffer (offset 0),
so the lowering model put `x[0]` at the wrong place, saw no overlap with the column written by
`x[:, 1].copy_(x[0] * -1)`, and the column's loop read (0, 1) after writing it (rewrite wrong,
stock right: `rewrite fuzz --seed 0 --n 5000` program 2903).  The transaction now computes the
fake values of rewired views again (and puts them back on rollback)."""
import torch

EXPECT = """
fires: reinplace_update_into_input
present: rewrite.materialized_copy count=2 on inductor
absent: rewrite.materialized_copy on eager
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1):
    x1[1:4][:, 2:] = x1[:3, :2]
    x1.view(4, 4)[:, 1].copy_(x1[0] * -1)


def inputs():
    base0 = torch.randint(-4, 5, (7, 4)).float()
    return (base0[3:7],)
