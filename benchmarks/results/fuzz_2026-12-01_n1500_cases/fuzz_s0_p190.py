"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 190): both on base inductor.

rewrite-inductor: differs from eager on call 1: input[0]: Tensor-likes are not close! Mismatched
    elements: 6 / 15 (40.0%) Greatest absolute difference: 0.6890011429786682 at index (1, 2)
    (up to 1e-05 allowed) Greatest relative difference: 38.30718994140625 at index (1, 2) (up to
    1e-05 allowed)
inductor: differs from eager on call 1: input[0]: Tensor-likes are not close! Mismatched
    elements: 6 / 15 (40.0%) Greatest absolute difference: 0.6890011429786682 at index (1, 2)
    (up to 1e-05 allowed) Greatest relative difference: 38.30718994140625 at index (1, 2) (up to
    1e-05 allowed)
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0):
    x0.view(3, 5).copy_(x0.t().sigmoid())
    return None


def inputs():
    return (torch.randint(-4, 5, (5, 3)).float(),)
