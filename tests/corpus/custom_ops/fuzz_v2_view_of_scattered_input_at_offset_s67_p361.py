"""`x1[0] = -2.0`, then a v2 custom op writes `x1[:, 2:4][:4]` of an input at storage offset 5
with strides `(10, 1)` (`rewrite fuzz --seed 67` program 361, minimized).  The call's base is a
`select_scatter` of the input, faked at offset 0, and the call records its view at the offset it
has in the input (7).  On the eager base ATen's `select_scatter` copies the input's whole storage
with its strides and offset (`clone_preserve_strides`): the view lands where the program's did,
and the compile no longer stops there.  Under Inductor the scatter's buffer is contiguous at
offset 0, the view would land elsewhere (stock Inductor and aot_eager are wrong), and the compile
still stops: the graph runs eagerly.  With dynamic shapes the eager base cannot tell how the
pass's own trace fakes the scatter, and stops too (values right), so the case runs with static
shapes only."""
import torch

EXPECT = """
warns: runs eagerly instead on inductor
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::s67_p361_prefix_sum", mutates_args=("x",))
def prefix_sum(x: torch.Tensor) -> None:
    for i in range(1, x.shape[0]):
        x[i] = x[i] + x[i - 1]


@prefix_sum.register_fake
def _(x):
    return None


def fn(x1):
    x1[0] = -2.0
    prefix_sum(x1[:, 2:4][:4])


def inputs():
    base0 = torch.randint(-4, 5, (5, 10)).float()
    return (base0[:, 5:],)
