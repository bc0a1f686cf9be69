"""`x[1:] = x[:-1]; x.mul_(2)`: the scatter's value is scaled before the copy-back, which the
reinplacing rules' path does not follow, so they leave the scatter functional; and Inductor's
own reinplacing leaves it functional too (the scatter feeds a fusable op), so no repair is
needed.  The program stays right."""
import torch

EXPECT = """
rejects: materialize_source_for_inductor at where because inductor_reinplaces
not fires: privatize_for_inductor
eager_raises: RuntimeError
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x[1:] = x[:-1]
    x.mul_(2)


def reference(x):
    x[1:] = x[:-1].clone()
    x.mul_(2)


def inputs():
    return (torch.arange(8.0),)
