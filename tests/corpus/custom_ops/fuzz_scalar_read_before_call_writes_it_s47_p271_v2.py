"""`o = x1.diagonal()[1:-2:2][0].clone()`, then a custom op writes `x1.diagonal()[1:-2:2]` (`rewrite
fuzz --seed 47` program 271, minimized; `x1` an input at storage offset 25, a training step).
Inductor writes the call in place and its scheduler computes the 0-dim `clone`, one element read
before the call, after it: the program returned the new value under stock Inductor and, before,
under rewrite (aot_eager right; a read of two elements is ordered right).  The simulation of
Inductor's reinplacing now takes a 0-dim lazy read an extern call's write would overtake as a
hazard of the call, and `materialize_reads_before_call_for_inductor` computes that element into a
buffer of its own where the program reads it (the eager base runs the graph op by op: nothing
to repair there).  With dynamic shapes `write_back_custom_op` writes the call back before (as
under v1, where the legality check copies the element read), so the case runs with static shapes
only."""
import torch

EXPECT = """
fires: materialize_reads_before_call_for_inductor on inductor
not fires: materialize_reads_before_call_for_inductor on eager
present: rewrite.materialized_copy count=1 on inductor
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = False
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::reverse_from_p271_v2", mutates_args=("out",))
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
