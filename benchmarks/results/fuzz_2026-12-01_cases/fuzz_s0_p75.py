"""Found by `rewrite fuzz --seed 0 --n 300 --base both` (program 75), minimized from 12 to 3
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


def fn(x2):
    v1 = x2.narrow(2, 3, 1)[:, 0]
    def cond_fn_4(i, acc):
        v1[0, 0] = 0.5
        return i < 2
    def body_fn_4(i, acc):
        return i + 1, acc + v1.sum()
    i4, acc4 = torch.while_loop(cond_fn_4, body_fn_4, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    return (torch.randint(-4, 5, (2, 2, 4)).float(),)
