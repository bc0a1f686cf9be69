"""`x[:4].copy_(...)`, then `x.as_strided((3,), (2,), 3).mul_(y)`, on an input that starts at
storage offset 2 (fuzz `--seed 0 --n 5000` program 2609, minimized).  Eagerly the `as_strided`
addresses `x`'s storage: base elements 3, 5 and 7.  The functional graph replays it on
`slice_scatter(x, ...)`, the fresh tensor that stands for `x` after the first write, which starts a
storage of its own: its elements 3, 5, 7 are base elements 5, 7, 9.  Only Inductor's reinplacing
of the whole chain (the scatter into `x`, so that `as_strided` reads `x` itself) gives the
program's result, and stock Inductor is right.  The rules once gave the scatter a private copy
(`privatize_for_inductor`, after the judge compared Inductor's decision with the functional
reading) and the `as_strided` then read the copy: the functional result, wrong at 2 elements.
No rule rewrites such a graph now (`legality.functional_reading_not_the_programs`): it goes to
Inductor as it is.  The same program on an input that starts its storage is rewritten
(`reinplace/as_strided_after_a_write_to_dense_input`)."""
import torch

EXPECT = """
not fires: privatize_for_inductor
rejects: reinplace_update_into_input at legality
rejects: reinplace_scatter_into_intermediate at legality
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x, y):
    x[:4].copy_(x[2:6].clone())
    x.as_strided((3,), (2,), 3).mul_(y)


def inputs():
    return (torch.arange(12.0)[2:], torch.tensor([2.0, 3.0, 4.0]))
