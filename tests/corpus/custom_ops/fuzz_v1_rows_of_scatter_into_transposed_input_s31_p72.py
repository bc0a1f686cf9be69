"""An indexed write through the input's transpose, then a v1 custom op writes the list of its
rows `[x1[:1], x1[1:]]` (`rewrite fuzz --seed 31` program 72, minimized).  The rows are views of
a `slice_scatter` into the transposed input, whose fake value has column-major strides; Inductor
made a row-major buffer of it, and its decomposition of `auto_functionalized` cloned each row with
`clone_preserve_strides`, which reads the buffer by `as_strided` with the fake strides: every
element of the input came back wrong, some read past the buffer (stock alike, aot_eager right).
The computed tensor whose memory the call writes is now laid out as its fake value says
(`inductor_force_stride_order`, `rewrite/analysis/inductor/operand_layouts.py`)."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("fuzz::p72_op1_fb804ce5", mutates_args=("xs",))
def op1(xs: list[torch.Tensor]) -> None:
    for j, t in enumerate(xs):
        p = xs[j - 1].flatten()
        for i in range(t.shape[0]):
            t[i] = t[i] + p[i % p.numel()]


@op1.register_fake
def _op1_fake(xs):
    return None


def fn(x1):
    x1.t()[:, 2:4][torch.tensor([1]), torch.tensor([0])] = torch.tensor(2.0, dtype=torch.float32)
    op1([x1[:1], x1[1:]])
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 4)).float()
    return (base0,)
