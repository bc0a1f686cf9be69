"""`b[:3].clone(), b[1:].clone()` of a `cond` result in a training step: the branches are graphs of
their own, which Inductor runs its joint passes on too (before the outer graph, and after it for
functions its passes create); only the graph AOTAutograd describes (its inputs carry descriptors)
is recorded as the outputs' memory before the passes, so the forward graph reads its own record
and the second output gets a copy of its own, where noop removal dropped both clones."""
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
    c = torch.cond(b.sum() > 0, lambda p: p * 2, lambda p: p * 3, (b,))
    return c[:3].clone(), c[1:].clone()


def inputs():
    return torch.arange(4.0), torch.linspace(-1.0, 2.0, 4).requires_grad_()
