"""A `while_loop` body writes `r1[0, 0]`, where `r1` is a `cond`'s result over `x0` after
`x0.transpose(0, 1).scatter_add_(...)` (`rewrite fuzz --seed 139` program 131, minimized).
`while_loop_captured_mutations` threads `r1` through the loop as carried state.  Dynamo's example
value of `r1` is contiguous, so it entered the loop as itself, and the body returned it as a
contiguous copy; when AOTAutograd traces the loop, `r1` has strides `(1, 3)` (functionalization
lays the `cond`'s result out like the transposed update), and `while_loop` refused the body's
result: the compile failed on both bases and the graph ran eagerly (values right; stock right).
The body now returns the state in a tensor laid out like the state that entered
(`empty_like(...).copy_(...)`), whatever strides the trace gives it."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1, x2, x3):
    x0.transpose(0, 1).scatter_add_(1, torch.tensor([[1, 2, 1], [0, 1, 2], [2, 0, 0]]), x2.t()[2:5, 1:4].flip(1))

    def true_fn(p):
        return p + 1

    def false_fn(p):
        return p.clone()

    r1 = torch.cond(x3.sum() > 0, true_fn, false_fn, (x0,))

    def cond_fn(i, acc):
        return i < 3

    def body_fn(i, acc):
        r1[0, 0] = 1.0
        return i + 1, acc + x1.sum()

    i3, acc3 = torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), torch.zeros(())))


def inputs():
    base0 = torch.randint(-4, 5, (5, 5)).float()
    return torch.randint(-4, 5, (3, 3)).float(), base0[0:4], base0[1:5], torch.randint(-4, 5, (7,)).float()
