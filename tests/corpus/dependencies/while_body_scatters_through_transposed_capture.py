"""A while_loop body scatters into a captured tensor through its transpose.  Threaded as loop
state, the tensor left the body with the transposed view's strides after functionalization, and
while_loop refused ("Expected carried_inputs and body_output to have same metadata"; `rewrite
fuzz --seed 0 --n 5000` program 4667, eager base).  The body now returns the state contiguous,
as it entered.  Through Inductor this program stops inside torch
(`_torchinductor_pyobject_tensor_data_ptr: non-tensor input`, with and without the rules; stock
Inductor's result is wrong), so the case runs on the eager base (static and dynamic shapes).  The cause is not the mutation:
Inductor (torch 2.13) passes `None` for a tensor constant of a `while_loop` body (here the index
`torch.tensor([[3, 2, 3, 2]])`; its wrapper has `while_loop_body_graph_0__tensor_constant0 =
None`), and a body that only reads such a constant fails the same way under stock Inductor."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    def cond_fn(i, acc):
        return i < 2

    def body_fn(i, acc):
        x1.transpose(0, 1).scatter_(0, torch.tensor([[3, 2, 3, 2]]), -1.0)
        return i + 1, acc + x0.sum()

    torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), torch.zeros(())))


def inputs():
    return torch.randint(-4, 5, (5, 3)).int(), torch.randint(-4, 5, (4, 4)).float()
