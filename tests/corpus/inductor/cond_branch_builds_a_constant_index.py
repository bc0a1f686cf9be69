"""A `cond` branch scatters with an index it builds itself, a tensor constant of the branch that
stock Inductor never sets (see `while_body_builds_a_constant_index`): stock fails at run time,
aot_eager runs it.  The constant becomes one more operand of the `cond`; the other branch gets the
operand too and does not read it."""
import torch

EXPECT = """
present: higher_order.cond count=1
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x):
    def scatter(x):
        return x.scatter(0, torch.tensor([[1], [0], [2]]), -x)

    def double(x):
        return x * 2

    return torch.cond(x.sum() > 0, scatter, double, (x,))


def inputs():
    return (torch.arange(9).reshape(3, 3),)
