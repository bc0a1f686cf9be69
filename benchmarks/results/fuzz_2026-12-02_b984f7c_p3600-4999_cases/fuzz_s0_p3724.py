"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 3600..4999)` (program 3724),
minimized from 10 to 8 statements: both on base inductor.

rewrite-inductor: raised on call 1: AssertionError: expected size 3==3, stride 4==8 at dim=0
inductor: raised on call 1: RuntimeError: cond_fn might be modifying the input!
Rules fired: reinplace_scatter_into_input, while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0):
    o1 = x0.clone()
    x0[:, 2][:-2].copy_(x0[:, 2][2:].clone())
    def true_fn_2(p):
        x0[:, :1].add_(x0[:, 1:2].flip(1))
        def cond_fn_3(i, acc):
            x0[1, 3] = -1.0
            return i < 3
        def body_fn_3(i, acc):
            return i + 1, acc + x0.sum()
        i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return p * 2
    def false_fn_2(p):
        return p * 0
    r2 = torch.cond(o1.sum() > 0, true_fn_2, false_fn_2, (x0,))
    def true_fn_4(p):
        return p * 2
    def false_fn_4(p):
        x0[:, :4:2][torch.tensor([0, 1]), torch.tensor([1, 1])] = x0[2, :2].flip(0)
        return p.clone()
    r4 = torch.cond(o1.sum() > 0, true_fn_4, false_fn_4, (x0,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (3, 8)).float()
    return (base0[:, 0:4],)
