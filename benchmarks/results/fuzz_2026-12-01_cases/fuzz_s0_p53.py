"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 53), minimized from 14 to 5
statements: both on base eager.

rewrite-eager: raised on call 1: RuntimeError: body_fn might be modifying the input!
pipeline-eager: raised on call 1: RuntimeError: body_fn might be modifying the input!
Rules fired: while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x1, x2, x3, idx6):
    def true_fn_1(p):
        return p.clone()
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x2,))
    def true_fn_3(p):
        def cond_fn_4(i, acc):
            return i < 3
        def body_fn_4(i, acc):
            r1[-1].index_add_(0, torch.tensor([3, 3, 3]), x2[1, 1:4])
            return i + 1, acc + r1.sum()
        i4, acc4 = torch.while_loop(cond_fn_4, body_fn_4, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return p * 2
    def false_fn_3(p):
        x3[1, 1] = 1.0
        return p - 1
    r3 = torch.cond(x1.sum() > 0, true_fn_3, false_fn_3, (r1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (7,)).float()
    base1 = torch.randint(-4, 5, (5, 4)).float()
    base2 = torch.randint(-4, 5, (6,)).float()
    return base0[3:7], base1[0:3], base1[2:5], torch.tensor([1, 2])
