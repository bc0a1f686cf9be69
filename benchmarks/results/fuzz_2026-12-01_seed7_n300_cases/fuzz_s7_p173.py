"""Found by `rewrite fuzz --seed 7 --n 300 --base both` (program 173), minimized from 3 to 2
statements: both on base inductor.

rewrite-inductor: raised on call 1: RuntimeError: _torchinductor_pyobject_tensor_data_ptr: non-
    tensor input
inductor: raised on call 1: RuntimeError: _torchinductor_pyobject_tensor_data_ptr: non-tensor
    input
Rules fired: cond_captured_mutations, reinplace_scatter_into_input.
"""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1, x2):
    def true_fn_1(p):
        x0[:, 1:3].scatter_(1, torch.tensor([[0], [1], [1]]), -2.0)
        return p * 2
    def false_fn_1(p):
        return p * 0
    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x2,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (3, 3)).float()
    base1 = torch.randint(-4, 5, (10,)).float()
    return base0, base0.t(), base1[0:5]
