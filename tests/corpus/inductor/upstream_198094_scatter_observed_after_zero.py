"""pytorch issue 198094: `y = torch.slice_scatter(x, src[1:3], 0, 1, 3); x.zero_(); return y`.
Stock Inductor writes the scatter into x because x has a copy-back, though that copy-back
writes zeros and y is still returned: y comes back all zeros.  The simulated decision fails the
legality check (the output changes); materializing the source would not help, so the scatter
gets a private copy of x."""
import torch

EXPECT = """
fires: privatize_for_inductor
not fires: materialize_source_for_inductor
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x, src):
    y = torch.slice_scatter(x, src[1:3], dim=0, start=1, end=3)
    x.zero_()
    return y


def inputs():
    return (torch.arange(24, dtype=torch.int64).reshape(4, 6),
            torch.arange(-12, 12, dtype=torch.int64).reshape(4, 6))
