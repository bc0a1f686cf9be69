"""Found by `rewrite fuzz --seed 0 --n 3200 --base both` (program 139), minimized from 18 to 3
statements: both on base inductor.

rewrite-inductor: raised on call 1: RuntimeError: _torchinductor_pyobject_tensor_data_ptr: non-
    tensor input
inductor: raised on call 1: RuntimeError: _torchinductor_pyobject_tensor_data_ptr: non-tensor
    input
Rules fired: cond_captured_mutations.
"""
import torch

EXPECT = """
matches_eager atol=1e-05 rtol=1e-05
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = False


def fn(x0, x1):
    x1[-2][torch.tensor([0, 2])] = torch.tensor(1.0, dtype=torch.float32)
    def true_fn_3(p):
        x1.view(3, 5).scatter_add_(0, torch.tensor([[1, 2, 2, 1, 1], [1, 1, 0, 2, 1]]), x1.t()[1:3].tanh())
        return p.clone()
    def false_fn_3(p):
        return p * 0
    r3 = torch.cond(x1.sum() > 0, true_fn_3, false_fn_3, (x0,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5, 3)).float()
    return base0, base0
