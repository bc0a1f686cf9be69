"""Two views of one tensor are the inputs (`rewrite fuzz --seed 0` program 4778, minimized): the
op writes `x1.view(-1)[4:-2:2]` (elements 16, 18, 20 of the base) and reads `x0[1]` (elements
3..5).  AOTAutograd gives them one synthetic base, so the v2 call's base and the tensor it reads
share a storage.  The simulation of Inductor's reinplacing called that a read of memory written
in place, the private copy that would prevent it cannot be made for a base addressed by
`as_strided`, and the graph fell back to aot_eager on both bases where the rules-free pipeline
is right.  The read and the write are now compared element by element: they are disjoint, and
the graph compiles (no fallback warning)."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("fuzz::p4778_op2_c8c77e87", mutates_args=("x",))
def op2(x: torch.Tensor, y: torch.Tensor) -> None:
    n = x.shape[0]
    for i in range(n):
        x[i] = x[i] + y[n - 1 - i]


@op2.register_fake
def _op2_fake(x, y):
    return None


def fn(x0, x1):
    op2(x1.view(-1)[4:-2:2], x0[1])
    return None


def inputs():
    base0 = torch.randint(-4, 5, (8, 3)).float()
    return base0[0:4], base0[4:]
