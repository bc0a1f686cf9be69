"""A `while_loop` condition scatters into the captured input with an index it builds itself
(`rewrite fuzz --seed 0` program 3957, reduced).  The backend passes such a constant of a loop
function to the loop as an operand (stock Inductor never sets it).  The operand's fake value was
made with the graph's shape environment, which gave the constant's sizes symbols of their own
(`i64[1, s73]`), and Inductor's code for the static program then named a size it never bound
(`NameError: name 's73' is not defined`; stock Inductor is wrong here, aot_eager right).  A
constant's fake value now has static sizes."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    def cond_fn(i, acc):
        x0.scatter_add_(0, torch.tensor([[3, 3, 2, 1, 4]]), x0[1:2] * 2)
        return i < 2

    def body_fn(i, acc):
        return i + 1, acc + x0.sum()

    i, acc = torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return acc


def inputs():
    return (torch.randint(-4, 5, (5, 5)).float(),)
