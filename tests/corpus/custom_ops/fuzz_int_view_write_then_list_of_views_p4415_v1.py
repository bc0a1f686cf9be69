"""`x1.view(torch.int32)[:1].zero_()`, then a v1 custom op writes `[x1[:1], x1[1:]]`, `x1` an input
at storage offset 1, in a training program (`rewrite fuzz --seed 0` program 4415, minimized).
`auto_functionalized`'s decomposition copies each written view with `clone_preserve_strides`: an
`as_strided` over the storage of the `slice_scatter` that the dtype-view write became.  Inductor
allocates that result as its fake value says (offset 0); ATen's `slice_scatter` of a view at offset
1 copies the view's whole storage and keeps offset 1, so on the eager base (rules or not) the
`as_strided` read the element before `x1` (the caller's `base0[0]`); aot_eager and Inductor were
right.  The eager base now gives a computed tensor an `as_strided` addresses the layout of its fake
value."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::p4415_add_previous", mutates_args=("xs",))
def add_previous(xs: list[torch.Tensor]) -> None:
    for j, t in enumerate(xs):
        p = xs[j - 1].flatten()
        for i in range(t.shape[0]):
            t[i] = t[i] + p[i % p.numel()]


@add_previous.register_fake
def _(xs):
    return None


def fn(x1):
    x1.view(torch.int32).narrow(0, 0, 1).zero_()
    add_previous([x1[:1], x1[1:]])


def inputs():
    base0 = torch.randint(-4, 5, (6,)).float()
    return (base0[1:3],)
