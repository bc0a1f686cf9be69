"""`x.as_strided(...)` read after `x.diagonal().add_(1)` and a write through `x.transpose(0, 1)`:
the functional graph reads `as_strided(permute(slice_scatter(permute(diagonal_scatter(x)))))`.
The `slice_scatter` is laid out transposed, but the permute the `as_strided` addresses holds
`x`'s elements laid out as `x` is, so storage addresses name the same elements
(`layout_maps._operand_laid_out_as_memory`; fuzz seed 173 p604).  The engine used to stop the
compile (values right, run eagerly).  Its twin, on an input that does not fill its storage,
still stops: `as_strided_of_strided_input_after_writes_through_its_transpose_stops.py`."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x):
    x.diagonal().add_(1)
    x.transpose(0, 1)[:, 1:] = x.transpose(0, 1)[:, :-1].clone()
    return x.as_strided((2, 2), (1, 3), 1) * 1


def inputs():
    return (torch.randint(-4, 5, (3, 3)).float(),)
