"""`x.copy_(d + x)`: the input is the second operand of the add, which `reinplace` cannot write
into; the result pattern of `commuted_add_into_input` builds `x.add_(d)`."""
import torch

EXPECT = """
fires: commuted_add_into_input
absent: aten.add.Tensor
present: aten.add_.Tensor count=1
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x, d):
    x.copy_(d + x)


def inputs():
    return torch.arange(12.0).reshape(3, 4), torch.full((4,), 0.5)
