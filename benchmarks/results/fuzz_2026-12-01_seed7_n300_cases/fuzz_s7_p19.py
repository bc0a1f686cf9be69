"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 19), minimized from 6 to 4
statements: stock on base inductor.

rewrite-inductor: matches eager
inductor: raised on call 1: RuntimeError: cond_fn might be modifying the input!
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


def fn(x1, x2, x3):
    def true_fn_1(p):
        def cond_fn_2(i, acc):
            x3[:, 0][0][torch.tensor([0])] = x2[3:4].tanh()
            return i < 3
        def body_fn_2(i, acc):
            return i + 1, acc + x1.sum()
        i2, acc2 = torch.while_loop(cond_fn_2, body_fn_2, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return p * 2
    def false_fn_1(p):
        x1[1::2].add_(x1[:1].clone())
        return p * 0
    r1 = torch.cond(x2.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (3, 4)).float()
    return base0[:, 1], torch.randint(-4, 5, (5,)).float(), torch.randint(-4, 5, (2, 2, 4)).float()
