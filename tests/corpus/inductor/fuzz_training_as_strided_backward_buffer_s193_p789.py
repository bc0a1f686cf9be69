"""A training step writes through an `as_strided` of an intermediate (`rewrite fuzz --seed 193`
program 789, minimized).  Autograd's `as_strided` backward writes the gradient into a buffer
`full([20])` and views it as `as_strided([4, 5], [5, 1], 0)`; after two scatters of that view the
backward graph takes another `as_strided` of the scatter.  The scatter is contiguous at offset 0
and the view keeps the buffer's flat order, so the functional graph addresses the elements the
program did (with dynamic shapes the buffer is `Max(2, 5*s)` long, proved no shorter).  The
check read it as laid out otherwise and stopped the backward graph, which had no fallback: the
eager base raised in `backward()` (stock Inductor, the rules-free pipeline and aot_eager right)."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1, w3):
    t1 = x1 + w3[:5]
    v2 = t1.as_strided((2, 1), (1, 2))
    v2.transpose(0, 1)[:, 0] = 2.0
    t1[2:4].narrow(1, 4, 1).copy_(x0[:1].flip(0))
    return v2


def inputs():
    return (torch.randint(-4, 5, (5,)).float(), torch.randint(-4, 5, (4, 5)),
            torch.randint(-3, 4, (6,)).float().requires_grad_())
