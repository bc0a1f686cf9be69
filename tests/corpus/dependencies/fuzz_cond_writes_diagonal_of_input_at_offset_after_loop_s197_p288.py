"""A `while_loop` and then a `cond` branch write `o1 = x3.diagonal()`, where `x3` is a row range
at storage offset 10 (`rewrite fuzz --seed 197` program 288, minimized; run with v2 off, as the fuzzer drew it).
`cond_captured_mutations` declines the strided `o1`, so the `cond` reaches the post-grad graph
as `auto_functionalized_v2`, whose branch regenerates `o1` as `as_strided(base, (4,), (6,), 10)`
of its base, a `diagonal_scatter` standing for `x3`: right only where Inductor writes that scatter
and the call in place into `x3`.  The operand-layout step put an `inductor_force_stride_order`
between the scatter and the call, a buffer of its own: the eager base raised (`setStorage ... out
of bounds`) and the Inductor base was wrong (stock wrong, aot_eager right).  A base whose views
address an input's storage is left as it is."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


def fn(x1, x3):
    o1 = x3.diagonal()

    def cond_fn_2(i, acc):
        return i < 3

    def body_fn_2(i, acc):
        o1[3] = 0.5
        return i + 1, acc + x1.sum()

    torch.while_loop(cond_fn_2, body_fn_2, (torch.zeros((), dtype=torch.int64), torch.zeros(())))

    def true_fn_3(p):
        o1[0] = -1.0
        return p.clone()

    def false_fn_3(p):
        return p * 0

    torch.cond(o1.sum() > 0, true_fn_3, false_fn_3, (x1,))


def inputs():
    base0 = torch.randint(-4, 5, (6, 5)).float()
    return torch.randint(-4, 5, (7,)).float(), base0[2:6]
