"""A `while_loop` body writes `o1 = x0[3:5:2]`, one element with stride 2: `is_contiguous` says
yes (it ignores size-1 dimensions) but `while_loop` compares strides as they are, so the state
carried into the loop must be a contiguous copy ("Expected carried_inputs and body_output to have
same metadata").  The loop's `cond_fn` also writes a captured intermediate, which stock Inductor
loses (`rewrite fuzz --seed 0 --n 1500` program 1356: stock wrong, rewrite right)."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1, x2, x3):
    o1 = x0[3:5:2]
    o1.add_(o1.flip(0))
    t2 = x2 + x1[1:5]
    def cond_fn_3(i, acc):
        t2[3, 3] = 2.0
        return i < 3
    def body_fn_3(i, acc):
        o1[0] = -1.0
        o1.mul_(2)
        return i + 1, acc + o1.sum()
    i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    v4 = t2[2:5].narrow(1, 2, 2)
    o1[0].view(torch.int32).sub_(o1[0].to(torch.int32))
    return t2, x3


def inputs():
    base0 = torch.randint(-4, 5, (5,)).float()
    base1 = torch.randint(-4, 5, (7, 4)).float()
    return base0, base0, base1[0:5], base1[2:7]
