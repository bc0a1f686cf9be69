"""A custom op writes a row of an input `x2` (a view of a larger base) under
auto_functionalized_v2, then `x2.sub_(x2.roll(1, 1))` (`rewrite fuzz --seed 0` program 950,
minimized).  Inductor's reinplacing writes the call in place, after which the copy-back's value
`x2 - x2[:, idx]` reads the input's memory at its own and at other positions.  Inductor computes
that value into a buffer first (two loads), but its scheduler then fuses it into the copy's loop
anyway (the reads go through the name the op's write gave the buffer): stock Inductor is wrong,
aot_eager right.  The call cannot be written back or given a private copy (its base is addressed
by `as_strided` and does not start its storage), so the copy-back's value is computed into a
buffer of its own first.  (The judge used to trust the realization and let stock's bug through
on the Inductor base; counted with the gather's load as one, it stopped the compile.)"""
import torch

EXPECT = """
fires: materialize_copy_back_source_for_inductor on inductor
not fires: materialize_copy_back_source_for_inductor on eager
not fires: write_back_custom_op
present: rewrite.materialized_copy count=1 on inductor
absent: rewrite.materialized_copy on eager
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::p950_residual_then_double", mutates_args=("x", "residual"))
def residual_then_double(x: torch.Tensor, residual: torch.Tensor) -> None:
    for i in range(x.shape[0]):
        residual[i] = residual[i] + x[i]
        x[i] = residual[i] * 2


@residual_then_double.register_fake
def _residual_then_double_fake(x, residual):
    return None


def fn(x2, w):
    b = torch.zeros_like(w)
    residual_then_double(b, x2[1])
    x2.sub_(x2.roll(1, 1))


def inputs():
    base = torch.randint(-4, 5, (10, 4)).float()
    return base[5:], torch.randint(-3, 4, (4,)).float()
