"""Found by `rewrite fuzz --seed 0 --n 3200 --base both` (program 812), minimized from 15 to 7
statements: both on base inductor.

rewrite-inductor: raised on call 1: AssertionError: expected size 6==6, stride 1==2 at dim=0
inductor: raised on call 1: RuntimeError: body_fn might be modifying the input!
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


def fn(x0, x1):
    def true_fn_1(p):
        return p + 1
    def false_fn_1(p):
        return p - 1
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    x1[-4].fill_(-2.0)
    t3 = x0 - 1
    def true_fn_4(p):
        x1[4] = -2.0
        def cond_fn_5(i, acc):
            return i < 1
        def body_fn_5(i, acc):
            t3[1, 1] = 3.0
            return i + 1, acc + t3.sum()
        i5, acc5 = torch.while_loop(cond_fn_5, body_fn_5, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return p.clone()
    def false_fn_4(p):
        return p - 1
    r4 = torch.cond(r1.sum() > 0, true_fn_4, false_fn_4, (r1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 3)).float()
    return base0.t(), torch.randint(-4, 5, (12,)).float()[::2]
