"""`o = x1.diagonal()[1:-2:2][0].clone()`, then a custom op writes `x1.diagonal()[1:-2:2]` (`rewrite
fuzz --seed 47` program 271, minimized; `x1` an input at storage offset 25, a training step).
Inductor writes the call in place and its scheduler computes the 0-dim `clone`, one element read
before the call, after it: the program returned the new value under stock Inductor and, before,
under rewrite (aot_eager right; a read of two elements is ordered right).  The simulation of
Inductor's reinplacing now takes a 0-dim lazy read an extern call's write would overtake as a
hazard of the call (the v2 case).  Under v1 `write_back_custom_op` writes the call back first, and
the legality check's model, which never trusts Inductor to realize a read before a write, copies
the element read first."""
import torch

EXPECT = """
fires: write_back_custom_op
not fires: materialize_reads_before_call_for_inductor
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::reverse_from_p271_v1", mutates_args=("out",))
def reverse_from(out: torch.Tensor, src: torch.Tensor) -> None:
    n = out.shape[0]
    for i in range(n):
        out[i] = src[n - 1 - i]


@reverse_from.register_fake
def _(out, src):
    return None


def fn(x0, x1):
    o2 = x1.diagonal()[1:-2:2][0].clone()
    reverse_from(x1.diagonal()[1:-2:2], x0[2, 3:4])
    return o2


def inputs():
    base0 = torch.randint(-4, 5, (10, 5)).float()
    return base0[0:5], base0[5:]
