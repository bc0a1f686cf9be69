"""A `while_loop` condition scatters into a permuted view of an input with an index it builds
itself (`rewrite fuzz --seed 0` program 2063, minimized).  Stock Inductor leaves the input at its
pre-loop value (the captured write is lost).  `while_loop_captured_mutations` threads the input
through the loop, which evaluates the condition, and its constant index, in the body; stock
Inductor never sets a constant of a loop function it does not inline, and the rewritten program
failed at run time until the backend passed such constants to the loop as operands
(`rewrite/analysis/inductor/subgraph_constants.py`).  aot_eager is right."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1):
    o2 = x1.permute(2, 0, 1)

    def cond_fn_3(i, acc):
        o2.narrow(1, 0, 1).scatter_(2, torch.tensor([[[2]], [[2]], [[1]]]), -o2[:, 1:2, 1:2])
        return i < 1

    def body_fn_3(i, acc):
        return i + 1, acc + o2.sum()

    i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    return (torch.randint(-4, 5, (2, 3, 3)),)
