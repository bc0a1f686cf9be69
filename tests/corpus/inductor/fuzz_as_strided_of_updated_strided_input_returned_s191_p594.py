"""`x0.add_(x0)` on `base[:, ::2]`, then `x0.as_strided((6,), (2,), 1)` returned: the elements
between `x0`'s columns (`rewrite fuzz --seed 191` program 594).  The functional graph replays the
`as_strided` on `add`, a fresh tensor that does not hold those elements, and Inductor's
reinplacing would not write `add` into the input, so the engine stopped the compile (values
right; stock right).  But the graph's `as_strided` is only returned, and AOTAutograd returns it
as an alias of the input: its runtime regenerates the view from the input with the output's
size, strides and offset, never reading its elements (`reinplace._outputs_regenerated_from_inputs`).
Its twin `as_strided_of_strided_input_after_writes_through_its_transpose_stops.py` computes with
the view and still stops."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    x0.add_(x0)
    v1 = x0.as_strided((6,), (2,), 1)
    return v1, x0


def inputs():
    base0 = torch.randint(-4, 5, (3, 10)).float()
    return (base0[:, ::2],)
