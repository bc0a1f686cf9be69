"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 3600..4999)` (program 3925),
minimized from 19 to 6 statements: both on base inductor.

rewrite-inductor: raised on call 1: RuntimeError: _torchinductor_pyobject_tensor_data_ptr: non-
    tensor input
inductor: raised on call 1: RuntimeError: body_fn might be modifying the input!
Rules fired: while_loop_captured_mutations.
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
    t1 = x1.abs()
    def cond_fn_3(i, acc):
        return i < 1
    def body_fn_3(i, acc):
        x0[4] = 3.0
        t1.view(torch.int32)[:1].scatter_add_(0, torch.tensor([[[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]]), t1[1:2].to(torch.int32))
        def cond_fn_4(i, acc):
            return i < 1
        def body_fn_4(i, acc):
            t1.fill_(0.5)
            return i + 1, acc + x0.sum()
        i4, acc4 = torch.while_loop(cond_fn_4, body_fn_4, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
        return i + 1, acc + x0.sum()
    i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 3, 4)).float()
    return torch.randint(-4, 5, (16,)).float()[::2], base0[1:3]
