"""Found by `rewrite fuzz --seed 0 --n 5000 --base both` (program 2400), minimized from 6 to 3
statements: both on base eager.

rewrite-eager: differs from eager on call 1: output[0]: Tensor-likes are not close! Mismatched
    elements: 2 / 2 (100.0%) Greatest absolute difference: 4.0 at index (1,) (up to 1e-05
    allowed) Greatest relative difference: 4.0 at index (1,) (up to 1e-05 allowed)
pipeline-eager: differs from eager on call 1: output[0]: Tensor-likes are not close! Mismatched
    elements: 2 / 2 (100.0%) Greatest absolute difference: 4.0 at index (1,) (up to 1e-05
    allowed) Greatest relative difference: 4.0 at index (1,) (up to 1e-05 allowed)
Rules fired: reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    v1 = x1[:, 2:-1].diagonal()
    t2 = x0 * 2
    v1[:1][torch.tensor([0])] = t2[3, 2:3].sin()
    return v1


def inputs():
    base0 = torch.randint(-4, 5, (6, 5)).float()
    return base0[0:4], base0[2:6]
