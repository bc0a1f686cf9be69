"""Found by `rewrite fuzz --seed 0 --n 1500 --base both` (program 1356), minimized from 9 to 3
statements: ours on base eager.

rewrite-eager: raised on call 1: UncapturedHigherOrderOpError: Expected carried_inputs and
    body_output to have same metadata but found:
pipeline-eager: matches eager
Rules fired: while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0):
    o1 = x0[3:5:2]
    def cond_fn_3(i, acc):
        return i < 3
    def body_fn_3(i, acc):
        o1[0] = -1.0
        return i + 1, acc + o1.sum()
    i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5,)).float()
    return (base0,)
