"""A v2 custom op writes two views of a strided input, one a strided slice of a column, the other a
piece of row 0 (`rewrite fuzz --seed 0` program 3089, minimized), after a write to another element
of the input.  The call's base is a fresh `select_scatter` standing for the input, which sits at
storage offset 5, and the call regenerates its views as `as_strided` at the offsets they had in
the input: right only where Inductor writes the scatter and the call in place into the input.  It
would not (stock Inductor and the rules-free pipeline are wrong, aot_eager right), so the engine
stops the compile (`reinplace.storage_addressed_write_lost`) and the graph runs eagerly.  The
fallback first traced the graph again with aot_eager, which read what the failed attempt left in
the shared fake-tensor mode: its dispatch cache with static shapes, and with dynamic ones the
call's view offsets came out relative to a fresh buffer; both times the input ended wrong."""
import torch

EXPECT = """
warns: runs eagerly instead
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = "both"
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
