"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 120), minimized from 5 to 2
statements: both on base inductor.

rewrite-inductor: raised on call 1: RuntimeError: _torchinductor_pyobject_tensor_data_ptr: non-
    tensor input
inductor: raised on call 1: RuntimeError: _torchinductor_pyobject_tensor_data_ptr: non-tensor
    input
Rules fired: reinplace_scatter_into_input.
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
    def true_fn_1(p):
        return p.clone()
    def false_fn_1(p):
        x0[:, :, 1:2][:].scatter_(2, torch.tensor([[[0], [0], [0]], [[0], [0], [0]]]), x0[:, :, 2:3] + -2)
        return p * 0
    r1 = torch.cond(x0.sum() > 0, true_fn_1, false_fn_1, (x0,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (3, 3, 2)).float()
    return (base0.permute(2, 1, 0),)
