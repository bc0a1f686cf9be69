"""A `cond` branch does `x1[:, 1:].scatter_add_(0, torch.tensor([[2, 2]]), ...)` on a transposed
input (`rewrite fuzz --seed 67` program 137, minimized).  The dependency rule leaves the `cond` to
the compiler (its operand is not contiguous), so the call reaches the post-grad passes wrapped in
`auto_functionalized_v2`, with the index a two-dimensional constant of the branch.  Stock Inductor
names that constant in the compiled code and never sets it: the program fails at run time
(`_torchinductor_pyobject_tensor_data_ptr: non-tensor input`, stock and rewrite before), while
aot_eager runs it.  Under `auto_functionalized_v2` no operand can be added, so the constant (two
elements) becomes a flat one, which Inductor inlines, viewed in its shape
(`subgraph_constants.wrapped_function_constants`)."""
import torch

EXPECT = """
fires: reinplace_update_into_input
matches_eager exact
inductor
warns: left to the compiler
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1):
    def true_fn_3(p):
        x1[:, 1:].scatter_add_(0, torch.tensor([[2, 2]]), x1[1:2, :2])
        return p * 2

    def false_fn_3(p):
        return p * 0

    r3 = torch.cond(x1.sum() > 0, true_fn_3, false_fn_3, (x1,))
    return r3


def inputs():
    base0 = torch.randint(1, 5, (3, 3)).float()
    return (base0.t(),)
