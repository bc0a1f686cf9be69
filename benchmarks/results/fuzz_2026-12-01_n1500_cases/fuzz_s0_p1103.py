"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 1103), minimized from 4 to 1
statements: ours on base inductor.

rewrite-inductor: differs from eager on call 1: input[1]: Tensor-likes are not close! Mismatched
    elements: 3 / 15 (20.0%) Greatest absolute difference: 1077936128.0 at index (0, 0) (up to
    1e-05 allowed) Greatest relative difference: 536870976.0 at index (0, 1) (up to 1e-05
    allowed)
inductor: matches eager
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


def fn(x0, x1):
    x1.view(torch.int32).narrow(0, 0, 1).add_(x0[1:4].clone().to(torch.int32))
    return None


def inputs():
    return torch.randint(-4, 5, (4,)).float(), torch.randint(-4, 5, (5, 3)).float()
