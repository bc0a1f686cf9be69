"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 2914..4999)` (program 4889),
minimized from 8 to 2 statements: both on base eager.

rewrite-eager: raised on call 1: ValueError: Cannot view a tensor with shape torch.Size([4, 5])
    and strides (1, 4) as a tensor with shape (10, 2)!
pipeline-eager: raised on call 1: ValueError: Cannot view a tensor with shape torch.Size([4, 5])
    and strides (1, 4) as a tensor with shape (10, 2)!
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0):
    x0.t().scatter_add_(0, torch.tensor([[3, 0, 0, 2]]), x0[2:3, :4].clone())
    x0.view(10, 2).mT.index_put_((torch.tensor([1]),), torch.tensor(-1, dtype=torch.int64))
    return None


def inputs():
    return (torch.randint(-4, 5, (4, 5)),)
