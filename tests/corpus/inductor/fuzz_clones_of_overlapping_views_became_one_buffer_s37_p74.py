"""Two outputs are clones of overlapping views of one updated tensor (`rewrite fuzz --seed 37`
program 74, minimized): `x0` and `x1` are rows 0..3 and 2..5 of one base, written through an
int32 view.  Noop removal drops both clones (its guard compares the storages the outputs had
before the pass, and each clone's own storage is not its source's), so the graph our post-grad
pass receives returns two overlapping `as_strided` views of one buffer.  AOTAutograd calls both
outputs tensors of their own, as it also calls outputs that do share memory in the program
(fuzz seed 0 p460), so the post-grad graph alone cannot tell them apart: the joint-stage pass
records which outputs shared memory before Inductor's passes (`earlier_passes.record_joint_outputs`), and the second
output gets a copy of its own (`earlier_passes.misplaced_outputs`).  The compiled outputs shared
memory on both bases (the rules-free pipeline too, and wrong values there; aot_eager right)."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


def fn(x0, x1):
    x0.view(torch.int32).scatter_add_(0, torch.tensor([2, 3, 0, 1]), x1.flip(0).to(torch.int32))
    t2 = x0.clone()
    c3 = x1.clone()
    o5 = c3.clone()
    return o5, t2


def inputs():
    base0 = torch.randint(-4, 5, (6,)).float()
    return base0[0:4], base0[2:6]
