"""Issue 23, training, with the mutated input requiring grad: `old = a.clone()`, then `a.mul_(2)`
under `no_grad`, and the old rows feed a loss.  The rows saved for backward become a view of `a`
(the clone dropped), which is written (in the graph or by AOTAutograd's runtime after it) before
backward reads them: stock Inductor's gradients come out wrong.  The saved rows get memory of
their own."""
import torch

EXPECT = """
fires: keep_values_read_after_copy_back in forward
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = "both"


def fn(a, w):
    old = a.clone()
    with torch.no_grad():
        a.mul_(2.0)
    return (old[3:5] * w).sum()


def inputs():
    return torch.arange(12.0).reshape(6, 2).requires_grad_(), torch.ones(2, requires_grad=True)
