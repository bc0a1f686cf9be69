"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 14), minimized from 13 to 4
statements: both on base eager.

rewrite-eager: raised on call 1: RuntimeError: During torch.compile, encountered a mutation on a
    view chain of length 3, where view 2 was an as_strided() call. as_strided() is non-
    compositional, and therefore is not possible to functionalize properly today,so this
    behavior is banned in compile. As a workaround, you can either remove the mutation from the
    model code, or you can insert a graph break right before the mutation with torch._dynamo.g
pipeline-eager: raised on call 1: RuntimeError: During torch.compile, encountered a mutation on
    a view chain of length 2, where view 1 was an as_strided() call. as_strided() is non-
    compositional, and therefore is not possible to functionalize properly today,so this
    behavior is banned in compile. As a workaround, you can either remove the mutation from the
    model code, or you can insert a graph break right before the mutation with torch._dynamo.g
Rules fired: cond_captured_mutations.
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x2):
    def cond_fn_2(i, acc):
        return i < 1
    def body_fn_2(i, acc):
        return i + 1, acc + x2.sum()
    i2, acc2 = torch.while_loop(cond_fn_2, body_fn_2, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    def cond_fn_4(i, acc):
        return i < 2
    def body_fn_4(i, acc):
        return i + 1, acc + i2.sum()
    i4, acc4 = torch.while_loop(cond_fn_4, body_fn_4, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    def true_fn_5(p):
        return p * 2
    def false_fn_5(p):
        x2.view(torch.int32).as_strided((8, 2), (2, 1)).index_put_((torch.tensor([2, 3, 6]),), acc4.to(torch.int32))
        return p - 1
    r5 = torch.cond(x2.sum() > 0, true_fn_5, false_fn_5, (acc4,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 5)).float()
    return (torch.randint(-4, 5, (4, 4)).float(),)
