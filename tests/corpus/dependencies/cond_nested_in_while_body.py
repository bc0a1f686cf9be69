"""A `torch.cond` nested in a `while_loop` body whose true branch mutates a captured tensor.
Stock Inductor fails to compile it.  The nested cond is rewritten first (innermost subgraph
first): its mutation becomes data flow inside the body, which the loop's dependency then
threads as carried state."""
import torch

EXPECT = """
fires: cond_captured_mutations
fires: while_loop_captured_mutations
matches_eager
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(state, x):
    def cond(i, acc):
        return i < 3

    def body(i, acc):
        def true_fn(a):
            state.add_(1.0)
            return a.clone()

        def false_fn(a):
            return a * 2

        acc = torch.cond(acc.sum() > 0, true_fn, false_fn, (acc,))
        return i + 1, acc + state

    return torch.while_loop(cond, body, (torch.zeros((), dtype=torch.int64), x))


def inputs():
    return torch.zeros(3), torch.ones(3)
