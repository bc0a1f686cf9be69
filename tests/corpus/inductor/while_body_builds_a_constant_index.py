"""A `while_loop` body scatters with an index it builds itself, `torch.tensor([[1], [0], [2]])`.
AOTAutograd makes the index a tensor constant of the body, and stock Inductor lowers a
function's constant it does not inline (two dimensions here) under the function's name and never
sets that name: the program fails at run time (`_torchinductor_pyobject_tensor_data_ptr:
non-tensor input`), while aot_eager runs it.  The backend passes the constant to the loop as one
more captured operand (`rewrite/analysis/inductor/subgraph_constants.py`), as if the program had built the
index before the loop, which Inductor compiles as usual.  No rule is involved, so nothing fires;
the loop's own operands grow by one."""
import torch

EXPECT = """
present: higher_order.while_loop count=1
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x):
    def cond_fn(i, acc):
        return i < 2

    def body_fn(i, acc):
        return i + 1, acc + x.scatter(0, torch.tensor([[1], [0], [2]]), -x).sum()

    i, acc = torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), torch.zeros((), dtype=torch.int64)))
    return acc


def inputs():
    return (torch.arange(9).reshape(3, 3),)
