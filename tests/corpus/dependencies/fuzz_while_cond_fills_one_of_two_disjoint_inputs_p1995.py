"""The caller passes two disjoint halves of one tensor (`base[0:5]`, `base[5:]`); `cond_fn` fills
the first, the body reads the second (`rewrite fuzz --seed 0` program 1995, minimized).  Stock
Inductor leaves the first half at its pre-loop value; aot_eager is right.  The new loop may not
take two operands of one storage (its functionalization refuses aliased operands), so until now
the dependency declined and the program stayed as wrong as stock.  Nothing the loop writes is in
the other half, so the written one enters the loop as a copy (the loop's state is private anyway)
and the loop takes both.  Under dynamic shapes the second half's storage offset is a symbol, the
halves are not provably disjoint, and the dependency still declines (left to the compiler, as
wrong as stock), so the case runs with static shapes only."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    def cond_fn(i, acc):
        x0.fill_(-2.0)
        return i < 2

    def body_fn(i, acc):
        return i + 1, acc + x1.sum()

    i, acc = torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return acc


def inputs():
    base = torch.randint(-4, 5, (10, 4)).float()
    return base[0:5], base[5:]
