"""The program returns `x1` (a view of a larger tensor at offset 5) after writing it through a
strided column view; two other inputs are overlapping views of one base (AOT's synthetic base).
AOTAutograd returns `x1` to the caller as an alias of its input, regenerated from the input's
base with the layout of the graph's output, so that output must be the input's memory, which
Inductor's reinplacing makes it.  The legality check refused exactly that ("output 0 would be
the memory of input"), and the repair that followed returned a private copy at offset 0: the
caller got rows 0-4 of the base (`rewrite fuzz --seed 0 --n 5000` program 2083, rewrite wrong,
stock right).  Outputs AOT returns as aliases of inputs may now become those inputs."""
import torch

EXPECT = """
not fires: privatize_for_inductor
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1, x2, x3):
    x1[:, 2:3:2].narrow(0, 1, 3).add_(x2[2:3] + -2)
    t1 = x3.clone()
    v2 = x3[-2]
    v2.unsqueeze(0).scatter_(0, torch.tensor([0]), t1[4:5])
    return x1


def inputs():
    base0 = torch.randint(-4, 5, (6, 5)).float()
    base1 = torch.randint(-4, 5, (10,)).float()
    return base0[1:6], base1[0:6], base1[4:10]
