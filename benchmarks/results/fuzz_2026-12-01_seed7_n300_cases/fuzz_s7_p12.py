"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 12), minimized from 18 to 4
statements: both on base eager.

rewrite-eager: raised on call 1: RuntimeError: cond_true might be modifying the input!
pipeline-eager: raised on call 1: RuntimeError: cond_true might be modifying the input!
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    def true_fn_1(p):
        x0[:, :2].scatter_(0, torch.tensor([[[0, 1, 0, 1], [0, 1, 0, 0]], [[1, 0, 1, 0], [1, 0, 1, 1]]]), -1.0)
        def true_fn_2(p):
            x1.select(2, 3)[1][torch.tensor([-1, 0])] = torch.tensor(3.0, dtype=torch.float32)
            return p + 1
        def false_fn_2(p):
            return p.clone()
        r2 = torch.cond(x1.sum() > 0, true_fn_2, false_fn_2, (x1,))
        return p.clone()
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 2, 4)).float()
    return base0[0:2], base0[2:]
