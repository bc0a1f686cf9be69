"""Found by `rewrite fuzz --seed 0 --n 5000 --base both (programs 3600..4999)` (program 3957),
minimized from 13 to 4 statements: both on base inductor.

rewrite-inductor: raised on call 1: RuntimeError: _torchinductor_pyobject_tensor_data_ptr: non-
    tensor input
inductor: differs from eager on call 1: input[0]: Tensor-likes are not close! Mismatched
    elements: 3 / 25 (12.0%) Greatest absolute difference: 5.0 at index (0, 0) (up to 1e-05
    allowed) Greatest relative difference: 5.0 at index (0, 0) (up to 1e-05 allowed);
    input[0]._base: Tensor-likes are not close! Mismatched elements: 3 / 25 (12.0%) Greatest
    absolute difference: 5.0 at index (0, 0) (up to 1e-05 allowed) Greatest relative difference:
    5.0 at index (0, 0) (up to 1e-05 allowed)
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


def fn(x0):
    def cond_fn_1(i, acc):
        return i < 3
    def body_fn_1(i, acc):
        x0[:, 0].masked_fill_(x0[:, 0] > -1, -1.0)
        return i + 1, acc + x0.sum()
    i1, acc1 = torch.while_loop(cond_fn_1, body_fn_1, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    def cond_fn_4(i, acc):
        x0.view(torch.int32).scatter_add_(0, torch.tensor([[3, 3, 2, 1, 4]]), (-x0.t()[1:2]).to(torch.int32))
        return i < 2
    def body_fn_4(i, acc):
        return i + 1, acc + acc1.sum()
    i4, acc4 = torch.while_loop(cond_fn_4, body_fn_4, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    return (torch.randint(-4, 5, (5, 5)).float().t(),)
