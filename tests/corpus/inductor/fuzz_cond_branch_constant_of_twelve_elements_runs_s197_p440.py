"""A `cond` branch writes a captured input through `x2[:-1].mT.scatter_(0, torch.tensor(...), 1)`
with a 4 x 3 index (`rewrite fuzz --seed 197` program 440; here the inputs make the branch run).
The dependency rule leaves the `cond` to the compiler, so it reaches the post-grad passes wrapped
in `auto_functionalized_v2`, the index a constant of the branch with 12 elements.  Stock Inductor
names such a constant in the compiled code and never sets it: the program raises when the branch
runs (in the fuzz program it never ran, and stock matched eager).  Too large for one inlined
constant, it stopped the compile of the rewrite; it is now made of flat pieces of at most 8
elements, which Inductor inlines, concatenated and viewed in its shape
(`subgraph_constants.wrapped_function_constants`)."""
import torch

EXPECT = """
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1, x2):
    def true_fn(p):
        x1[4] = -1.0
        x2[:-1].mT.scatter_(0, torch.tensor([[1, 0, 4], [0, 4, 1], [2, 2, 3], [4, 1, 2]]), 1)
        return p.clone()

    def false_fn(p):
        return p - 1

    return torch.cond(x1.sum() > 0, true_fn, false_fn, (x1,))


def inputs():
    base0 = torch.randint(1, 5, (5, 4)).float()
    return base0[:, 1], torch.randint(-4, 5, (4, 5))
