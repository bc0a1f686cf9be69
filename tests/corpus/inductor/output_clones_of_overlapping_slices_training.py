"""`b = a * w; return b[:3].clone(), b[1:].clone()` in a training step: noop removal drops both
clones (its guard compares the storages the outputs had before the pass), so the forward graph
returns two overlapping slices of `b`, and the caller's two outputs share memory under stock
Inductor (aot_eager right).  The joint-stage pass records that the outputs had memory of their
own before Inductor's passes (`earlier_passes.record_joint_outputs`: a training step's joint graph, whose first
outputs are the forward's), and the second gets a copy of its own, as the program asked.  The
inference twin is fuzz seed 37 p74 (`fuzz_clones_of_overlapping_views_became_one_buffer_s37_p74`)."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = "both"


def fn(a, w):
    b = a * w
    return b[:3].clone(), b[1:].clone()


def inputs():
    return torch.arange(4.0), torch.linspace(-1.0, 2.0, 4).requires_grad_()
