"""A clone of an input passed as a second call's scratch (noop removal merges it into the input):
Inductor writes the scratch into the input, which a later copy-back overwrites with another
value, and the output is the input's memory.  The call gets a copy of its own to write.
Found by `rewrite fuzz --seed 11 --n 60 --base inductor --features
views,indexed,copies,aliasing,old_values,compute,training,integers,custom_ops` (program 19),
minimized from 7 to 5 statements: ours on base inductor.

rewrite-inductor: differs from eager on call 1: memory shared by the outputs: eager gave (((),
    ()),), compiled gave (((0,), ()),)
inductor: differs from eager on call 1: memory shared by the outputs: eager gave (((), ()),),
    compiled gave (((0,), ()),)
Rules fired: copy_arguments_sharing_written_memory.
"""
import torch

EXPECT = """
fires: copy_inputs_a_call_writes
inductor
matches_eager exact
"""
MODE = "training"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::scratch_merged_0", mutates_args=("out", "scratch"))
def op1(out: torch.Tensor, scratch: torch.Tensor, x: torch.Tensor) -> None:
    n = out.shape[0]
    for i in range(n):
        scratch[i] = x[n - 1 - i]
    for i in range(n):
        out[i] = scratch[i] + x[i]


@op1.register_fake
def _op1_fake(out, scratch, x):
    return None


def fn(x0):
    c2 = x0.clone()
    b3 = torch.empty_like(x0)
    op1(x0, b3, c2)
    b5 = torch.empty_like(x0)
    op1(b5, c2, x0)
    return c2


def inputs():
    base0 = torch.randint(-4, 5, (11,)).float()
    return (base0[2:],)
