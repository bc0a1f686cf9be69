"""`x.as_strided((3,), (1,), 5)[mask] = -2.0; x.add_(x.flip(0))` on an input that is the right half
of a larger tensor (`rewrite fuzz --seed 0` program 1666, minimized).  The functional graph writes
the strided update through a copy of `x` that starts its own storage, which is not what the
program does, so the legality check cannot read the graph and it goes to Inductor as it is.
Stock Inductor writes the update in place (the program's write), and then copies
`x + x.flip(0)` into `x` in one loop that reads the rows it has already overwritten: stock is
wrong, aot_eager right.  Computing that value into a buffer first changes no value in any
reading of the graph (a copy of a tensor no node writes), so the one rule that only does that,
`materialize_copy_back_source_for_inductor`, may still run on it (`rewrite/engine/value_copies.py`);
the others are refused."""
import torch

EXPECT = """
fires: materialize_copy_back_source_for_inductor on inductor
not fires: materialize_copy_back_source_for_inductor on eager
rejects: reinplace_update_into_input at legality
present: rewrite.materialized_copy count=1 on inductor
absent: rewrite.materialized_copy on eager
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x):
    window = x.as_strided((3,), (1,), 5)
    window[window > -1] = -2.0
    x.add_(x.flip(0))


def inputs():
    base = torch.randint(-4, 5, (4, 8)).float()
    return (base[:, 4:],)
