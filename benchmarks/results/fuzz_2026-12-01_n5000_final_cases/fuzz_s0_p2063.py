"""Found by `rewrite fuzz --seed 0 --n 5000 --base both` (program 2063), minimized from 7 to 3
statements: both on base inductor.

rewrite-inductor: raised on call 1: RuntimeError: _torchinductor_pyobject_tensor_data_ptr: non-
    tensor input
inductor: differs from eager on call 1: input[0]: not equal at 3 of 18 elements; first at [0, 1,
    2]: eager 3, compiled 2
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


def fn(x1):
    o2 = x1.permute(2, 0, 1)
    def cond_fn_3(i, acc):
        o2.narrow(1, 0, 1).scatter_(2, torch.tensor([[[2]], [[2]], [[1]]]), -o2[:, 1:2, 1:2])
        return i < 1
    def body_fn_3(i, acc):
        return i + 1, acc + o2.sum()
    i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    return (torch.randint(-4, 5, (2, 3, 3)),)
