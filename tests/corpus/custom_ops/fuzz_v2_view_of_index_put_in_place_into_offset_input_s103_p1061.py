"""`x1.index_add_(...)` on `x1 = base0[1:6]` (storage offset 5), then a v2 custom op writing `x0` and
`x1[0]` (`rewrite fuzz --seed 103` program 1061, minimized).  The call's base for `x1[0]` is the
functional `index_put`, and functionalization recorded the view in that fresh tensor's layout:
storage offset 0.  Inductor writes the `index_put` in place into the input, so the call's
`as_strided` view at offset 0 of the input's storage is row 0 of `base0`, outside `x1`: stock
Inductor wrong, aot_eager right.  The engine now stops such a compile
(`reinplace._v2_views_land`: the chain in place into memory laid out otherwise than the layout
the views were recorded in), and the graph runs eagerly."""
import torch

EXPECT = """
warns: regenerates its views of `index_put` with the strides and storage offset
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("fuzz::p1061_op1_3ec484ab", mutates_args=("x", "residual"))
def op1(x: torch.Tensor, residual: torch.Tensor) -> None:
    for i in range(x.shape[0]):
        residual[i] = residual[i] + x[i]
        x[i] = residual[i] * 2


@op1.register_fake
def _op1_fake(x, residual):
    return None


def fn(x0, x1, x2):
    o1 = x1 * 2
    x1.index_add_(0, torch.tensor([1]), x1.t()[:1].flip(1))
    o2 = x0.clone()
    t3 = x1 * o1
    o4 = x0.clone()
    op1(x0, x1[0])
    return o4, o2


def inputs():
    base0 = torch.randint(-4, 5, (7, 5)).float()
    return torch.randint(-4, 5, (5,)).float(), base0[1:6], torch.randint(-4, 5, (5, 5))
