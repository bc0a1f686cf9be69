"""Found by `rewrite fuzz --seed 0 --n 5000 --base both` (program 1026), minimized from 6 to 3
statements: both on base eager.

rewrite-eager: raised on call 1: ValueError: Cannot view a tensor with shape torch.Size([2, 2])
    and strides (1, 2) as a tensor with shape (4,)!
pipeline-eager: raised on call 1: ValueError: Cannot view a tensor with shape torch.Size([2, 2])
    and strides (1, 2) as a tensor with shape (4,)!
Rules fired: while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x2):
    v1 = x0[2:4].view(3, 2)
    def cond_fn_2(i, acc):
        return i < 2
    def body_fn_2(i, acc):
        x2.view(2, 2).transpose(0, 1).index_add_(1, torch.tensor([1]), v1.t()[:, 1:2] * 3)
        return i + 1, acc + x2.sum()
    i2, acc2 = torch.while_loop(cond_fn_2, body_fn_2, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (6, 3)).float()
    base1 = torch.randint(-4, 5, (7,)).float()
    return base0[0:4], base1[1:5]
