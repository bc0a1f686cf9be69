"""`c = x.clone(); op(c, x)` with an op that writes both arguments: noop removal merges the clone
into `x`, and Inductor's reinplacing then writes both into `x`.  The argument whose new value
nothing reads gets a copy of its own.  Found by `rewrite fuzz --seed 7 --n 300 --base eager --features
views,indexed,copies,aliasing,old_values,compute,training,integers,custom_ops` (program 132),
minimized from 5 to 2 statements: ours on base eager.

rewrite-eager: differs from eager on call 1: input[0]: not equal at 8 of 8 elements; first at
    [0]: eager -4.0, compiled -8.0; input[0]._base: not equal at 8 of 10 elements; first at [2]:
    eager -4.0, compiled -8.0
pipeline-eager: differs from eager on call 1: input[0]: not equal at 8 of 8 elements; first at
    [0]: eager -4.0, compiled -8.0; input[0]._base: not equal at 8 of 10 elements; first at [2]:
    eager -4.0, compiled -8.0
"""
import torch

EXPECT = """
fires: copy_arguments_sharing_written_memory
inductor
matches_eager exact
"""
MODE = "training"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::writes_two_merged_v1", mutates_args=("x", "residual"))
def op1(x: torch.Tensor, residual: torch.Tensor) -> None:
    for i in range(x.shape[0]):
        residual[i] = residual[i] + x[i]
        x[i] = residual[i] * 2


@op1.register_fake
def _op1_fake(x, residual):
    return None


def fn(x0):
    c2 = x0.clone()
    op1(c2, x0)
    return None


def inputs():
    base0 = torch.randint(-4, 5, (10,)).float()
    return (base0[2:],)
