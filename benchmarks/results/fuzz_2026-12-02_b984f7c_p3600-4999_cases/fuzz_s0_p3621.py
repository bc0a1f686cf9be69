"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 3600..4999)` (program 3621),
minimized from 15 to 2 statements: both on base eager.

rewrite-eager: raised on call 1: RuntimeError: During torch.compile, encountered a mutation on a
    view chain of length 2, where view 1 was an as_strided() call. as_strided() is non-
    compositional, and therefore is not possible to functionalize properly today,so this
    behavior is banned in compile. As a workaround, you can either remove the mutation from the
    model code, or you can insert a graph break right before the mutation with torch._dynamo.g
pipeline-eager: raised on call 1: RuntimeError: During torch.compile, encountered a mutation on
    a view chain of length 2, where view 1 was an as_strided() call. as_strided() is non-
    compositional, and therefore is not possible to functionalize properly today,so this
    behavior is banned in compile. As a workaround, you can either remove the mutation from the
    model code, or you can insert a graph break right before the mutation with torch._dynamo.g
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2):
    o1 = x1.clone()
    x0.as_strided((2, 1), (1, 2)).index_add_(0, torch.tensor([0]), x2.t()[1:2, 2:3].flip(1))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (8,)).float()
    return base0, base0[0], torch.randint(-4, 5, (5, 4)).float()
