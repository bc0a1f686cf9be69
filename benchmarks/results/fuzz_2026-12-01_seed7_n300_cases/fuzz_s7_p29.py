"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 29), minimized from 5 to 2
statements: both on base inductor.

rewrite-inductor: raised on call 1: RuntimeError: _torchinductor_pyobject_tensor_data_ptr: non-
    tensor input
inductor: raised on call 1: RuntimeError: _torchinductor_pyobject_tensor_data_ptr: non-tensor
    input
Rules fired: while_loop_captured_mutations.
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0):
    def cond_fn_3(i, acc):
        x0.view(4, 4)[:, 1:].scatter_(0, torch.tensor([[1, 2, 1], [3, 1, 2], [2, 3, 0], [0, 0, 3]]), x0[:, 1:4] * 3)
        return i < 1
    def body_fn_3(i, acc):
        return i + 1, acc + x0.sum()
    i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return i3


def inputs():
    base0 = torch.randint(-4, 5, (6, 4)).float()
    return (base0[1:5],)
