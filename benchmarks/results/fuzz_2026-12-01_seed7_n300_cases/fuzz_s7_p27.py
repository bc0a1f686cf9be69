"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 27), minimized from 9 to 5
statements: stock on base inductor.

rewrite-inductor: matches eager
inductor: raised on call 1: RuntimeError: body_fn might be modifying the input!
Rules fired: cond_captured_mutations, while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x1, x2):
    def true_fn_1(p):
        return p.clone()
    def false_fn_1(p):
        return p - 1
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))
    def true_fn_3(p):
        x2[1, 1] = 3
        def cond_fn_4(i, acc):
            return i < 1
        def body_fn_4(i, acc):
            r1.fill_(-2.0)
            return i + 1, acc + r1.sum()
        i4, acc4 = torch.while_loop(cond_fn_4, body_fn_4, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return p + 1
    def false_fn_3(p):
        return p.clone()
    r3 = torch.cond(r1.sum() > 0, true_fn_3, false_fn_3, (x2,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5,)).float()
    return base0[1:5], torch.randint(-4, 5, (5, 3))
