"""`t1 = x2.sum(-1)`, `v2 = t1.view(torch.int32)[1:2]`, a `while_loop` whose body writes `v2[0]`
(and an input), returning `v2, t1` (`rewrite fuzz --seed 67` program 409, minimized).  The loop's
rewrite makes the new value of `t1` a `slice_scatter` of the int32 view, which the outputs read
through a row and through a float view.  Inductor lowers the float (dtype) view of that
uncomputed value as one more computation: the two outputs came back as tensors of their own,
where eagerly `v2` is a view of `t1` (stock Inductor also lost the loop's writes).
`share_dtype_viewed_outputs_for_inductor` now counts every output living in the dtype view's
root (`output_views` of a node owning its memory), not only views of the dtype view itself."""
import torch

EXPECT = """
fires: share_dtype_viewed_outputs_for_inductor on inductor
not fires: share_dtype_viewed_outputs_for_inductor on eager
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1, x2):
    t1 = x2.sum(-1)
    v2 = t1.view(torch.int32)[1:2]

    def cond_fn_4(i, acc):
        return i < 2

    def body_fn_4(i, acc):
        x1[:6].add_(x1)
        v2[0] = 1
        return i + 1, acc + x2.sum()

    i4, acc4 = torch.while_loop(cond_fn_4, body_fn_4, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return v2, t1


def inputs():
    base0 = torch.randint(-4, 5, (12,)).float()
    return base0[6:], torch.randint(-4, 5, (3, 5)).float()
