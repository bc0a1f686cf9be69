"""A `cond` branch writes `v1[0]`, `v1 = x4.unsqueeze(-1)` of a 0-dim input `x4 = base1[-1]` at
storage offset 5, after the program wrote it before the `cond` (`rewrite fuzz --seed 47` program
245, minimized; the branch wrote 3.0 here, where the fuzz program wrote the value the element
already held).  `auto_functionalized_v2` regenerates `v1` inside the branch as `as_strided(base,
(1,), (1,), 5)`, and the base is the fresh `select_scatter` standing for `x4`, a one-element
buffer at offset 0 once Inductor does not write the scatter in place: stock Inductor writes
outside it (the input keeps 1.0; aot_eager right).  In the fuzz program the write was idempotent
and stock came out right by luck, so the engine's stop (`reinplace.storage_addressed_write_lost`,
the v2 call's `as_strided` views) was counted as ours; it is not: the graph runs eagerly."""
import torch

EXPECT = """
warns: the functional form addresses other elements than the program did
warns: runs eagerly instead
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1, x4):
    v1 = x4.unsqueeze(-1)
    v1[0].fill_(1.0)
    def true_fn_2(p):
        return p * 2
    def false_fn_2(p):
        v1[0] = 3.0
        x1[0] = 2.0
        return p - 1
    r2 = torch.cond(x0.sum() > 1000, true_fn_2, false_fn_2, (x0,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (10,)).float()
    base1 = torch.randint(-4, 5, (6,)).float()
    return base0[0:7], base0[3:10], base1[-1]
