"""Issue #8, r1: `c[0] = 1.0; c[2:] = c[:-2] * 0.5`.  After reinplacing, Inductor fuses the `* 0.5`
into the loop that writes `c[2:]`, which would then read `c[i]` after writing it (the last elements
came out 1.5, 1.75 instead of 4.0, 4.5).  The legality check counts the fused read as happening
during the write, and `materialize_hazards` copies the overlapping source region first."""
import torch

EXPECT = """
fires: reinplace_update_into_input
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(c):
    c[0] = 1.0
    c[2:] = c[:-2] * 0.5


def inputs():
    return (torch.arange(12.0, dtype=torch.float64),)
