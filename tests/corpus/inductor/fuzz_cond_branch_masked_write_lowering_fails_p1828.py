"""A `cond` branch writes the captured `x1` through a boolean mask of the other input (`rewrite fuzz
--seed 0` program 1828, minimized).  Stock Inductor's lowering of the branch fails (`LoweringException:
Broadcast failed in ExpandView([4, 4], [1, 4])`), with or without the rules, while aot_eager runs the
program right.  A graph whose compile fails past the Dynamo stage now runs eagerly, with a
warning that names the error (`make_backend(fallback="error")` raises instead).  The dependency
still rewrites the `cond` at the Dynamo stage, which is the graph that runs."""
import torch

EXPECT = """
fires: cond_captured_mutations
warns: runs eagerly instead on inductor
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    def true_fn(p):
        return p + 1

    def false_fn(p):
        x1[2:3][:, :4][x0[:4] > 0] = 2.0
        return p - 1

    torch.cond(x0.sum() > 0, true_fn, false_fn, (x1,))


def inputs():
    base0 = torch.randint(-4, 5, (9,)).float()
    return base0[2:], torch.randint(-4, 5, (4, 4)).float()
