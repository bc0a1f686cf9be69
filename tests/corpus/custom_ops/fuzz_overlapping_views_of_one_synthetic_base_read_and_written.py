"""The overlapping twin of the p4778 case: the op writes `x1.view(-1)[0:6:2]` (elements 12, 14,
16 of the base) and reads `x1[1]` (elements 15..17), two views of the synthetic base AOTAutograd
makes of the inputs.  Element 16 is both read and written, so the read argument gets a copy
first (the functional call read it before any write)."""
import torch

EXPECT = """
fires: copy_arguments_sharing_written_memory
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("fuzz::p4778_overlap_op2_c8c77e87", mutates_args=("x",))
def op2(x: torch.Tensor, y: torch.Tensor) -> None:
    n = x.shape[0]
    for i in range(n):
        x[i] = x[i] + y[n - 1 - i]


@op2.register_fake
def _op2_fake(x, y):
    return None


def fn(x0, x1):
    op2(x1.view(-1)[0:6:2], x1[1])
    return None


def inputs():
    base0 = torch.randint(-4, 5, (8, 3)).float()
    return base0[0:4], base0[4:]
