"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 871), minimized from 12 to 3
statements: both on base eager.

rewrite-eager: differs from eager on call 1: input[0]: not equal at 7 of 9 elements; first at
    [0]: eager -2.0, compiled 4.0; input[0]._base: not equal at 7 of 11 elements; first at [2]:
    eager -2.0, compiled 4.0
pipeline-eager: raised on call 1: RuntimeError: cond_false might be modifying the input!
Rules fired: reinplace_indexed_update_into_input, while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2):
    def cond_fn_1(i, acc):
        return i < 2
    def body_fn_1(i, acc):
        def true_fn_2(p):
            return p * 2
        def false_fn_2(p):
            x0.index_add_(0, torch.tensor([5]), x2[5:6])
            return p - 1
        r2 = torch.cond(x1.sum() > 0, true_fn_2, false_fn_2, (x1,))
        return i + 1, acc + x0.sum()
    i1, acc1 = torch.while_loop(cond_fn_1, body_fn_1, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (11,)).float()
    base1 = torch.randint(-4, 5, (7,)).float()
    return base0[2:], base1, base1
