"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 160), minimized from 8 to 3
statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: output[0]: Tensor-likes are not close!
    Mismatched elements: 3 / 12 (25.0%) Greatest absolute difference: 3.909297466278076 at index
    (2, 1) (up to 1e-05 allowed) Greatest relative difference: 20.258502960205078 at index (3,
    1) (up to 1e-05 allowed)
inductor: differs from eager on call 1: output[0]: Tensor-likes are not close! Mismatched
    elements: 3 / 12 (25.0%) Greatest absolute difference: 3.909297466278076 at index (2, 1) (up
    to 1e-05 allowed) Greatest relative difference: 20.258502960205078 at index (3, 1) (up to
    1e-05 allowed)
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    t2 = x0.clone()
    x0[3][1:2] = -x1[2, :1]
    t2[:, 1][1:4][torch.tensor([1, 2, 0])] = t2[2].sin()
    return t2


def inputs():
    return torch.randint(-4, 5, (3, 4)).float().t(), torch.randint(-4, 5, (3, 3)).float().t()
