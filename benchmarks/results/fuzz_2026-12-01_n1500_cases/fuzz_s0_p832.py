"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 832), minimized from 2 to 1
statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: input[0]: Tensor-likes are not close! Mismatched
    elements: 2 / 9 (22.2%) Greatest absolute difference: 1073741824.0 at index (1, 2) (up to
    1e-05 allowed) Greatest relative difference: inf at index (0, 1) (up to 1e-05 allowed);
    input[0]._base: Tensor-likes are not close! Mismatched elements: 2 / 15 (13.3%) Greatest
    absolute difference: 1073741824.0 at index (1, 2) (up to 1e-05 allowed) Greatest relative
    difference: inf at index (0, 1) (up to 1e-05 allowed)
inductor: differs from eager on call 1: input[0]: Tensor-likes are not close! Mismatched
    elements: 2 / 9 (22.2%) Greatest absolute difference: 1073741824.0 at index (1, 2) (up to
    1e-05 allowed) Greatest relative difference: inf at index (0, 1) (up to 1e-05 allowed);
    input[0]._base: Tensor-likes are not close! Mismatched elements: 2 / 15 (13.3%) Greatest
    absolute difference: 1073741824.0 at index (1, 2) (up to 1e-05 allowed) Greatest relative
    difference: inf at index (0, 1) (up to 1e-05 allowed)
Rules fired: reinplace_scatter_into_view_of_input.
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x2, x4):
    x2.view(torch.int32).diagonal(1)[x4[1, 1:3] > 0] = 3
    return None


def inputs():
    base1 = torch.randint(-4, 5, (5, 3)).float()
    return base1[0:3], torch.randint(-4, 5, (5, 4)).float()
