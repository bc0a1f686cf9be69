"""Found by `rewrite fuzz --seed 0 --n 3600 --base both (programs 3200..3599)` (program 3429),
minimized from 6 to 4 statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: output[0]: Tensor-likes are not close!
    Mismatched elements: 12 / 12 (100.0%) Greatest absolute difference: 8.0 at index (1, 1, 1)
    (up to 1e-05 allowed) Greatest relative difference: 3.0 at index (0, 0, 2) (up to 1e-05
    allowed)
inductor: differs from eager on call 1: output[0]: Tensor-likes are not close! Mismatched
    elements: 1 / 12 (8.3%) Greatest absolute difference: 4.0 at index (0, 0, 2) (up to 1e-05
    allowed) Greatest relative difference: 4.0 at index (0, 0, 2) (up to 1e-05 allowed);
    input[0]: Tensor-likes are not close! Mismatched elements: 1 / 12 (8.3%) Greatest absolute
    difference: 4.0 at index (0, 0, 2) (up to 1e-05 allowed) Greatest relative difference: 4.0
    at index (0, 0, 2) (up to 1e-05 allowed); input[0]._base: Tensor-likes are not close!
    Mismatched elements: 1 / 24 (4.2%) Greatest absolute difference: 4.0 at index (1, 0, 2) (up
    to 1e-05 allowe
Rules fired: reinplace_scatter_into_input, while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2):
    x2[:3].scatter_(0, torch.tensor([2, 1, 0]), 3.0)
    x1[:4].view(torch.int32).neg_()
    def cond_fn_2(i, acc):
        return i < 2
    def body_fn_2(i, acc):
        x0[0, 0, 2] = 1.0
        return i + 1, acc + x0.sum()
    i2, acc2 = torch.while_loop(cond_fn_2, body_fn_2, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return x0


def inputs():
    base0 = torch.randint(-4, 5, (4, 2, 3)).float()
    base1 = torch.randint(-4, 5, (4, 5)).float()
    return base0[1:3], base1, base1[:, 1]
