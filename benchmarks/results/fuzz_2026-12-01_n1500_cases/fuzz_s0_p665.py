"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 665), minimized from 6 to 4
statements: both on base inductor.

rewrite-inductor: differs from eager on call 1: input[1]: Tensor-likes are not close! Mismatched
    elements: 1 / 25 (4.0%) Greatest absolute difference: 0.004225969314575195 at index (3, 3)
    (up to 1e-05 allowed) Greatest relative difference: 0.00211369339376688 at index (3, 3) (up
    to 1e-05 allowed)
inductor: differs from eager on call 1: input[0]: Tensor-likes are not close! Mismatched
    elements: 1 / 5 (20.0%) Greatest absolute difference: 1.5 at index (1,) (up to 1e-05
    allowed) Greatest relative difference: 3.0 at index (1,) (up to 1e-05 allowed);
    input[0]._base: Tensor-likes are not close! Mismatched elements: 1 / 7 (14.3%) Greatest
    absolute difference: 1.5 at index (3,) (up to 1e-05 allowed) Greatest relative difference:
    3.0 at index (3,) (up to 1e-05 allowed)
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


def fn(x0, x1):
    def cond_fn_1(i, acc):
        x0[1] = 0.5
        return i < 3
    def body_fn_1(i, acc):
        return i + 1, acc + x0.sum()
    i1, acc1 = torch.while_loop(cond_fn_1, body_fn_1, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    x1.narrow(0, 4, 1).t().mul_(0.5)
    x1[:, 3].add_(x1[0].tanh())
    return None


def inputs():
    base0 = torch.randint(-4, 5, (7,)).float()
    return base0[2:], torch.randint(-4, 5, (5, 5)).float()
