"""A v1 custom op writes the items of `x2.split(2)`, `x2` a strided input, in a training graph under
dynamic shapes (`rewrite fuzz --seed 0` program 1919, minimized).  Inductor's own post-grad pass
`decompose_auto_functionalized` fails on it (a bare `assert` in the pattern matcher's
`replace_by_example`), on both bases and without the rules; aot_eager runs it right.  The graph now
runs eagerly, with a warning that names the error and where it was raised.  With static
shapes the pass does not fail (and nothing warns), so the case runs with dynamic shapes only."""
import torch

EXPECT = """
warns: runs eagerly instead
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = True
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::p1919_add_previous", mutates_args=("xs",))
def add_previous(xs: list[torch.Tensor]) -> None:
    for j, t in enumerate(xs):
        p = xs[j - 1].flatten()
        for i in range(t.shape[0]):
            t[i] = t[i] + p[i % p.numel()]


@add_previous.register_fake
def _(xs):
    return None


def fn(x2):
    add_previous(list(x2.split(2)))


def inputs():
    return (torch.randint(-4, 5, (16,)).float()[::2],)
