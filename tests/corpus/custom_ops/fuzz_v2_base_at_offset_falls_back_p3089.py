"""A v2 custom op writes two views of a strided input, one a strided slice of a column, the other a
piece of row 0 (`rewrite fuzz --seed 0` program 3089, minimized).  The ownership net cannot give
the call's base a private copy (it is addressed by `as_strided` at a storage offset) and stops the
compile; the graph now runs with aot_eager (the rules-free pipeline and aot_eager are right).
That fallback was wrong at first: the failed compile leaves entries in torch's global fake-tensor
dispatch cache that make aot_eager's trace of the same graph wrong, so the fallback clears it.  On
the Inductor base stock Inductor and rewrite both compute one element wrong (Inductor's lowering,
not the net), and with dynamic shapes the compile does not stop (nothing falls back), so the case
runs on the eager base with static shapes only."""
import torch

EXPECT = """
warns: runs with aot_eager instead
matches_eager exact
"""
MODE = "training"
CALLS = 3
DYNAMIC = False
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::p3089_rotate_pair", mutates_args=("q", "k"))
def rotate_pair(q: torch.Tensor, k: torch.Tensor, cos: torch.Tensor) -> None:
    n = q.shape[0]
    for i in range(n):
        a = q[i].clone()
        q[i] = q[i] * cos[i] - k[n - 1 - i]
        k[n - 1 - i] = k[n - 1 - i] * cos[i] + a


@rotate_pair.register_fake
def _(q, k, cos):
    return None


def fn(x0, w2):
    t1 = (w2 * 2 + 1).relu()
    x0[-3][1].mul_(-1)
    rotate_pair(x0[:, -4][:-1:2], x0[0, 3:4], t1.detach()[3:4])


def inputs():
    base0 = torch.randint(-4, 5, (5, 5)).float()
    return base0[1:4], torch.randint(-3, 4, (7,)).float().requires_grad_()
