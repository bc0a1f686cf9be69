"""`cond_fn` writes a strided view of the input: the loop's state enters as a contiguous copy, since
`while_loop` needs the body to return its state laid out as it came in (`rewrite fuzz`, seed 0
program 75)."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x2):
    v1 = x2.narrow(2, 3, 1)[:, 0]
    def cond_fn(i, acc):
        v1[0, 0] = 0.5
        return i < 2
    def body_fn(i, acc):
        return i + 1, acc + v1.sum()
    i, acc = torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return acc


def inputs():
    return (torch.arange(16.0).reshape(2, 2, 4) - 8,)
