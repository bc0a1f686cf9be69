"""A v1 custom op writes `a2`, the first half of `cat((x0, x0 * 2))`, after `x0.add_(x0.flip(1))`
(`rewrite fuzz --seed 0` program 3718, reduced).  Written back in place, the call writes the `cat`'s
buffer; but Inductor computes the `cat`'s lazy input, the `add` that is `x0`'s new value, straight
into its slice of that buffer (`ConcatKernel`), and the copy of that value into `x0` after the call
then read what the call wrote (rewrite wrong; stock Inductor and aot_eager right).  The lowering
model now knows the hazard: a write into a `cat`'s result while a lazy input of the `cat` is read
after the write; the write-back stops, and Inductor copies as stock does.  (Since the readers of
one value share a copy taken where the value is defined, `materialize_hazards` repairs the `cat`
hazard; the legality check then stops the write-back at a read of `x0` that Inductor would defer
past its copy-back.)"""
import torch

EXPECT = """
not fires: write_back_custom_op on inductor
fires: write_back_custom_op on eager
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::p3718_add_reversed", mutates_args=("x",))
def add_reversed(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    old = x.clone()
    n = x.shape[0]
    for i in range(n):
        x[i] = x[i] + y[n - 1 - i]
    return old


@add_reversed.register_fake
def _(x, y):
    return torch.empty_like(x)


def fn(x0):
    x0.add_(x0.flip(1))
    t1 = torch.cat((x0, x0 * 2), 0)
    a2, b2 = t1.split(5, 0)
    add_reversed(a2, t1[3:8])
    return b2


def inputs():
    return (torch.randint(-4, 5, (5, 3)).float(),)
