"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 2914..4999)` (program 2914),
minimized from 6 to 2 statements: stock on base inductor.

rewrite-inductor: matches eager
inductor: differs from eager on call 1: input[0]: Tensor-likes are not close! Mismatched
    elements: 1 / 18 (5.6%) Greatest absolute difference: nan at index (0, 1, 0) (up to 1e-05
    allowed) Greatest relative difference: nan at index (0, 1, 0) (up to 1e-05 allowed);
    input[0]._base: Tensor-likes are not close! Mismatched elements: 1 / 36 (2.8%) Greatest
    absolute difference: nan at index (1, 1, 0) (up to 1e-05 allowed) Greatest relative
    difference: nan at index (1, 1, 0) (up to 1e-05 allowed)
Rules fired: privatize_for_inductor, reinplace_scatter_into_intermediate.
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x4):
    x4.view(torch.int32).diagonal(1).masked_fill_(x4.view(torch.int32).diagonal(1) > 1, 1)
    x4.diagonal(1)[0][torch.tensor([0])] = torch.tensor(-1.0, dtype=torch.float32)
    return None


def inputs():
    base2 = torch.randint(-4, 5, (4, 3, 3)).float()
    return (base2[1:3],)
