"""A clone of an updated input returned, then a custom op writes a view of the input under
`auto_functionalized_v2` (`rewrite fuzz --seed 163` program 915, minimized).  Noop removal drops
the program's `x1.clone()`, so the graph returns the `slice_scatter` that updates `x1`, and that
`slice_scatter` is also the v2 call's base.  The input is rows 0..2 of a larger tensor, so the v2
call's `as_strided` views of a fresh tensor standing for it make the graph one the legality check
cannot read: it is left to Inductor, but for copies of values.  Inductor's reinplacing writes the
`slice_scatter` into the input, and the caller got the input's memory as its output (stock
Inductor too, with the op's write in it where the op writes any element; aot_eager right).  The
simulated reinplacing shows the output in the input's memory, and
`copy_returned_update_for_inductor` gives the update's readers a copy of its value."""
import torch

EXPECT = """
fires: copy_returned_update_for_inductor on inductor
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::p915_prefix_sum_", mutates_args=("x",))
def prefix_sum_(x: torch.Tensor) -> None:
    for i in range(1, x.shape[0]):
        x[i] = x[i] + x[i - 1]


@prefix_sum_.register_fake
def _prefix_sum_fake(x):
    return None


def fn(x1):
    o1 = x1[:2]
    o1.diagonal().add_(x1[2, :2].flip(0))
    o2 = x1.clone()
    prefix_sum_(x1[:, :-1].diagonal())
    return o2


def inputs():
    base0 = torch.randint(-4, 5, (6, 4)).float()
    return (base0[0:3],)
