"""`x0.view(-1).view(4, 4).add_(...)` on a `(2, 2, 4)` input, then `x0.as_strided((7, 1), (1, 7)).zero_()`,
in training (`rewrite fuzz --seed 71` program 225, minimized).  The `as_strided_scatter` writes the
storage of the `add` that stands for `x0`; the engine compared the two layouts by their strides,
`(4, 1)` against `(8, 4, 1)`, found them different and stopped the compile on the eager base (its
rules-free pipeline right).  Both are contiguous, start and fill storages of one size, and every
step between them keeps the flat order of the elements, so each storage address holds the same
element in both (`layout_maps._flat_alike`): it compiles now, on both bases."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = "both"


def fn(x0, w1):
    t1 = w1 * 2
    x0.view(-1).view(4, 4).add_((t1[:4, :4] * 3).detach())
    x0.as_strided((7, 1), (1, 7)).zero_()
    return None


def inputs():
    return torch.randint(-4, 5, (2, 2, 4)).float(), torch.randint(-3, 4, (5, 5)).float().requires_grad_()
