"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 2914..4999)` (program 4912),
minimized from 13 to 6 statements: both on base eager.

rewrite-eager: differs from eager on call 1: input[0]: not equal at 5 of 25 elements; first at
    [4, 0]: eager 5.0, compiled 4.0; input[0]._base: not equal at 5 of 45 elements; first at [4,
    0]: eager 5.0, compiled 4.0; input[1]: not equal at 5 of 25 elements; first at [0, 0]: eager
    5.0, compiled 4.0; input[1]._base: not equal at 5 of 45 elements; first at [4, 0]: eager
    5.0, compiled 4.0
pipeline-eager: raised on call 1: RuntimeError: cond_fn might be modifying the input!
Rules fired: reinplace_scatter_into_input, reinplace_scatter_into_intermediate, while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2, x3):
    def cond_fn_1(i, acc):
        return i < 3
    def body_fn_1(i, acc):
        def cond_fn_2(i, acc):
            x2.index_put_((torch.tensor([-4, -2]),), x2[:2] * -1)
            return i < 3
        def body_fn_2(i, acc):
            return i + 1, acc + x2.sum()
        i2, acc2 = torch.while_loop(cond_fn_2, body_fn_2, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return i + 1, acc + x2.sum()
    i1, acc1 = torch.while_loop(cond_fn_1, body_fn_1, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    def true_fn_3(p):
        x1[1, 3] = 0.5
        x0[3:5].add_((i1 + -2).to(torch.float32))
        return p + 1
    def false_fn_3(p):
        return p * 0
    r3 = torch.cond(x2.sum() > 0, true_fn_3, false_fn_3, (x3,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (9, 5)).float()
    base1 = torch.randint(-4, 5, (8,)).float()
    return base0[0:5], base0[4:9], base1[0:4], base1[4:]
