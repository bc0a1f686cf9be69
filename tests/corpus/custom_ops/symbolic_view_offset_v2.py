"""A write into a strided row of an input under v2 with dynamic shapes: the view's storage offset is
`sym_storage_offset` of the program's view, which Inductor's `as_strided` over the input
misplaces; written back, the op writes through the program's own view.
Found by `rewrite fuzz --seed 11 --n 60 --base inductor --features
views,indexed,copies,aliasing,old_values,compute,training,integers,custom_ops` (program 53),
minimized from 3 to 1 statements: ours on base inductor.

rewrite-inductor: differs from eager on call 1: input[0]: not equal at 6 of 15 elements; first
    at [0, 0]: eager 4.0, compiled 2.0
inductor: differs from eager on call 1: input[0]: not equal at 6 of 15 elements; first at [0,
    0]: eager 4.0, compiled 2.0
"""
import torch

EXPECT = """
fires: write_back_custom_op
inductor
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::symbolic_offset_0", mutates_args=("x",))
def op1(x: torch.Tensor, y: torch.Tensor) -> None:
    n = x.shape[0]
    for i in range(n):
        x[i] = x[i] + y[n - 1 - i]


@op1.register_fake
def _op1_fake(x, y):
    return None


def fn(x0):
    op1(x0[::2][1], x0[0])
    return None


def inputs():
    return (torch.randint(-4, 5, (5, 3)).float(),)
