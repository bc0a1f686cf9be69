"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 86), minimized from 19 to 10
statements: stock on base inductor.

rewrite-inductor: matches eager
inductor: raised on call 1: RuntimeError: cond_true might be modifying the input!
Rules fired: cond_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2):
    o2 = x2.clone()
    def true_fn_1(p):
        return p * 2
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x2.sum() > 0, true_fn_1, false_fn_1, (x1,))
    t3 = o2 * 3
    def cond_fn_5(i, acc):
        return i < 1
    def body_fn_5(i, acc):
        return i + 1, acc + x1.sum()
    i5, acc5 = torch.while_loop(cond_fn_5, body_fn_5, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    def true_fn_6(p):
        def true_fn_7(p):
            t3[:, 0].scatter_(0, torch.tensor([1]), r1[1, 1:2].clone())
            return p.clone()
        def false_fn_7(p):
            x2[:, 1::2].add_(3.0)
            t3[:5].add_(t3)
            return p.clone()
        r7 = torch.cond(x0.sum() > 0, true_fn_7, false_fn_7, (acc5,))
        return p + 1
    def false_fn_6(p):
        x0[1, 0] = -2.0
        return p - 1
    r6 = torch.cond(x1.sum() > 0, true_fn_6, false_fn_6, (r1,))
    return r6


def inputs():
    base0 = torch.randint(-4, 5, (6, 3)).float()
    return base0[0:3], base0[3:], torch.randint(-4, 5, (5, 4)).float()
