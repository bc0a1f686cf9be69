"""`x.index_put_((idx,), x.clone())` swapping rows: Inductor's passes before ours drop the clone,
so the graph the rules see is `index_put(x, idx, x)` copied back into `x`.  Stock Inductor
writes it in place while its loop still reads the rows it swaps (wrong; `rewrite fuzz --seed 0
--n 1500` program 1473).  The lowering model used to skip every operand that is the written
tensor, also in the values' position, and so accepted the same in-place write; now the values
are read into a copy first, and the write into `x` stays a write into `x`: one copy of `x`, as
eager's clone."""
import torch

EXPECT = """
fires: reinplace_update_into_input
copies: <= 48 bytes
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1):
    x1.index_put_((torch.tensor([1, 0]),), x1.clone())


def inputs():
    return (torch.randint(-4, 5, (2, 2, 3)).int(),)
