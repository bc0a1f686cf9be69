"""`x0.copy_(x1.t()[:, 1:4])`, then a `cond` branch writes `x0[2, 1]` (`rewrite fuzz --seed 0`
program 1232, v2).  Returned from the branches, `x0`'s new value is the functional
`aten.copy(x0, src)`, which Inductor lowers in the layout of `src` (transposed) while it compiles
the branches for `x0`'s own: the branch's input failed its stride check ("expected stride 1==3";
stock, which passes the input itself, was right; the program as the fuzzer made it:
the `cond` alone, minimized, fails under stock too).  The dependency now declines an operand filled
by a `copy_` from a tensor laid out otherwise, and the op is left to torch."""
import torch
from torch import Tensor

EXPECT = """
rejects: cond_captured_mutations at rewrite because laid out otherwise
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::p1232_shift_into", mutates_args=("out",))
def shift_into(out: Tensor, src: Tensor) -> None:
    for i in range(out.shape[0] - 1):
        out[i + 1] = src[i]


@shift_into.register_fake
def _(out, src):
    return None


def fn(x0, x1, idx2):
    x0[:, 1:-1:2][2][torch.tensor([0])] = x1[3, 3:4].flip(0)
    t1 = x0.sigmoid()
    x0.mul_(2)
    x0.copy_(x1.t()[:, 1:4])
    o4 = x0.clone()

    def true_fn(p):
        x0[2, 1] = 3.0
        return p + 1

    def false_fn(p):
        return p - 1

    r3 = torch.cond(t1.sum() > 0, true_fn, false_fn, (t1,))
    shift_into(t1, o4)
    return r3, t1


def inputs():
    return torch.randint(-4, 5, (4, 3)).float(), torch.randint(-4, 5, (4, 4)).float(), torch.tensor([1, 2, 0])
