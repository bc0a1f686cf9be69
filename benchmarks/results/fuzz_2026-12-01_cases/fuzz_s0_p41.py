"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 41), minimized from 4 to 3
statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: input[0]: Tensor-likes are not close! Mismatched
    elements: 1 / 2 (50.0%) Greatest absolute difference: 2.0 at index (1,) (up to 1e-05
    allowed) Greatest relative difference: inf at index (1,) (up to 1e-05 allowed);
    input[0]._base: Tensor-likes are not close! Mismatched elements: 1 / 5 (20.0%) Greatest
    absolute difference: 2.0 at index (2,) (up to 1e-05 allowed) Greatest relative difference:
    inf at index (2,) (up to 1e-05 allowed)
inductor: differs from eager on call 1: input[0]: Tensor-likes are not close! Mismatched
    elements: 1 / 2 (50.0%) Greatest absolute difference: 2.0 at index (1,) (up to 1e-05
    allowed) Greatest relative difference: inf at index (1,) (up to 1e-05 allowed);
    input[0]._base: Tensor-likes are not close! Mismatched elements: 1 / 5 (20.0%) Greatest
    absolute difference: 2.0 at index (2,) (up to 1e-05 allowed) Greatest relative difference:
    inf at index (2,) (up to 1e-05 allowed)
Rules fired: reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = True


def fn(x1):
    v1 = x1.view(torch.int32)
    def cond_fn_3(i, acc):
        return i < 1
    def body_fn_3(i, acc):
        v1[1] = 3
        return i + 1, acc + v1.sum()
    i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5,)).float()
    return (base0[1:3],)
