"""`x2.add_(x2.flip(1))` on a `(10, 2)`-strided input, then a v2 custom op writes a list of row
ranges of `x2` (`rewrite fuzz --seed 103` program 571, minimized).  Functionalization's wrapper of
`x2` takes `add`'s contiguous layout at the in-place `add_`, so the call records its views at the
offsets rows have in `add`'s buffer (0, 5, 15), not in the input (0, 10, 30).  Inductor's
reinplacing does not write `add` into the strided input, and the eager base lays the buffer out
as its fake value: the views land where the program's did.  The check compared `add`'s buffer
with the input it stands for and stopped the compile on the eager base (values right through the
fallback); it now compares the buffer with the layout the views were recorded in
(`reinplace._v2_views_land`)."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::s103_p571_shift_rows", mutates_args=("xs",))
def shift_rows(xs: list[torch.Tensor]) -> None:
    for j, t in enumerate(xs):
        p = xs[j - 1].flatten()
        for i in range(t.shape[0]):
            t[i] = t[i] + p[i % p.numel()]


@shift_rows.register_fake
def _(xs):
    return None


def fn(x2):
    x2.add_(x2.flip(1))
    shift_rows([x2[:1], x2[1:3], x2[3:]])


def inputs():
    base0 = torch.randint(-4, 5, (5, 10)).float()
    return (base0[:, ::2],)
