"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 181), minimized from 5 to 3
statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: input[0]: Tensor-likes are not close! Mismatched
    elements: 2 / 5 (40.0%) Greatest absolute difference: 3.0 at index (4,) (up to 1e-05
    allowed) Greatest relative difference: 1.0 at index (3,) (up to 1e-05 allowed);
    input[0]._base: Tensor-likes are not close! Mismatched elements: 2 / 9 (22.2%) Greatest
    absolute difference: 3.0 at index (4,) (up to 1e-05 allowed) Greatest relative difference:
    1.0 at index (3,) (up to 1e-05 allowed); input[1]: Tensor-likes are not close! Mismatched
    elements: 1 / 5 (20.0%) Greatest absolute difference: 3.0 at index (0,) (up to 1e-05
    allowed) Greatest relative diffe
inductor: differs from eager on call 1: input[0]: Tensor-likes are not close! Mismatched
    elements: 2 / 5 (40.0%) Greatest absolute difference: 3.0 at index (4,) (up to 1e-05
    allowed) Greatest relative difference: 1.0 at index (3,) (up to 1e-05 allowed);
    input[0]._base: Tensor-likes are not close! Mismatched elements: 2 / 9 (22.2%) Greatest
    absolute difference: 3.0 at index (4,) (up to 1e-05 allowed) Greatest relative difference:
    1.0 at index (3,) (up to 1e-05 allowed); input[1]: Tensor-likes are not close! Mismatched
    elements: 1 / 5 (20.0%) Greatest absolute difference: 3.0 at index (0,) (up to 1e-05
    allowed) Greatest relative diffe
Rules fired: reinplace_indexed_update_into_input.
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x2, x3):
    def true_fn_1(p):
        return p + 1
    def false_fn_1(p):
        x2[torch.tensor([3])] = x3[:1].sigmoid()
        return p.clone()
    r1 = torch.cond(x2.sum() > 0, true_fn_1, false_fn_1, (x3,))
    x2.add_(x2.flip(0))
    return None


def inputs():
    base1 = torch.randint(-4, 5, (9,)).float()
    return base1[0:5], base1[4:9]
