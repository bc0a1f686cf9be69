"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 2914..4999)` (program 2933),
minimized from 8 to 2 statements: both on base eager.

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


def fn(x0):
    t1 = x0 * 3
    t1[1:-1].as_strided((2, 2), (1, 2)).add_(-2.0)
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 4)).float()
    return (base0,)
