"""`x.as_strided((3,), (2,), 0).mul_(3)` on an input that starts at storage offset 2: eagerly,
`as_strided` addresses `x`'s storage (elements 0, 2 and 4 of the base: one before `x`, and `x[0]`,
`x[2]`).  AOTAutograd's functional graph reads the view with `as_strided(x, ..., 0)` (the same
elements) but writes it back with `as_strided_scatter(x, ..., 0)`, which addresses a copy of `x`
that starts its own storage (`x[0]`, `x[2]`, `x[4]`): the graph does not compute what the program
does.  Stock Inductor's reinplacing turns the scatter into `as_strided(x, ..., 0).copy_(...)`,
the program's own write, and is right.  The judge of that decision once compared it with the
functional reading, called it unsafe and gave the scatter a private copy: the functional result,
wrong (found by red-teaming the legality check).  Such a scatter is now left to Inductor
(`layout_maps.scatter_addresses_a_copy`); the reinplace rule, which reads it functionally, is
refused."""
import torch

EXPECT = """
not fires: privatize_for_inductor
not fires: reinplace_scatter_into_intermediate
rejects: reinplace_update_into_input at legality
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3


def fn(x):
    x.as_strided((3,), (2,), 0).mul_(3)
    return x + 1


def inputs():
    return (torch.arange(12.0)[2:8],)
