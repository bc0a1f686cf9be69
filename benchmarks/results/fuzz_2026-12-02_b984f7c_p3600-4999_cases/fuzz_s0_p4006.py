"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 3600..4999)` (program 4006),
minimized from 9 to 7 statements: both on base eager.

rewrite-eager: differs from eager on call 1: input[1]: Tensor-likes are not close! Mismatched
    elements: 2 / 16 (12.5%) Greatest absolute difference: 0.8414709568023682 at index (1, 1, 1)
    (up to 1e-05 allowed) Greatest relative difference: 0.5 at index (0, 1, 1) (up to 1e-05
    allowed); input[1]._base: Tensor-likes are not close! Mismatched elements: 2 / 16 (12.5%)
    Greatest absolute difference: 0.8414709568023682 at index (1, 1, 1) (up to 1e-05 allowed)
    Greatest relative difference: 0.5 at index (1, 1, 0) (up to 1e-05 allowed)
pipeline-eager: differs from eager on call 1: input[1]: Tensor-likes are not close! Mismatched
    elements: 2 / 16 (12.5%) Greatest absolute difference: 0.8414709568023682 at index (1, 1, 1)
    (up to 1e-05 allowed) Greatest relative difference: 0.5 at index (0, 1, 1) (up to 1e-05
    allowed); input[1]._base: Tensor-likes are not close! Mismatched elements: 2 / 16 (12.5%)
    Greatest absolute difference: 0.8414709568023682 at index (1, 1, 1) (up to 1e-05 allowed)
    Greatest relative difference: 0.5 at index (1, 1, 0) (up to 1e-05 allowed)
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    o1 = x1[:, 1]
    v2 = x1[:, :, 1:]
    v3 = o1[:, :2][:, :]
    v2[:, 1].narrow(0, 0, 2)[torch.tensor([0, 1])] = x0.t()[1:3, :3].sin()
    def true_fn_4(p):
        v2[1, 1, 1] = 1.0
        v3.mul_(2)
        return p + 1
    def false_fn_4(p):
        return p - 1
    r4 = torch.cond(o1.sum() > 0, true_fn_4, false_fn_4, (v3,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 2, 2)).float()
    return torch.randint(-4, 5, (4, 4)).float(), base0.permute(2, 1, 0)
