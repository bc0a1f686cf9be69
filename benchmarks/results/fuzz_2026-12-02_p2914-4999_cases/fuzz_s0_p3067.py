"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 2914..4999)` (program 3067),
minimized from 7 to 3 statements: stock on base inductor.

rewrite-inductor: matches eager
inductor: raised on call 1: IndexError: index 0 is out of bounds for dimension 0 with size 0
Rules fired: privatize_for_inductor, reinplace_scatter_into_input, while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x1, x3):
    v2 = x3[2:4].view(2, 3)
    def cond_fn_3(i, acc):
        return i < 1
    def body_fn_3(i, acc):
        v2[0][1:2:2].index_put_((torch.tensor([0, 0]),), torch.tensor(0.5, dtype=torch.float32), accumulate=True)
        return i + 1, acc + x1.sum()
    i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (6,)).float()
    base1 = torch.randint(-4, 5, (10, 3)).float()
    return base0[2:6], base1[5:]
