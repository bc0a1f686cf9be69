"""An op with an optional written argument given None that returns a tensor, under v2: Inductor's
pipeline returns the wrong item of the functionalized call; written back, the op is called as is.
Found by `rewrite fuzz --seed 7 --n 300 --base eager --features
views,indexed,copies,aliasing,old_values,compute,training,integers,custom_ops` (program 264),
minimized from 2 to 1 statements: ours on base eager.

rewrite-eager: differs from eager on call 1: output[0]: shape (3,) != eager (3, 3)
pipeline-eager: differs from eager on call 1: output[0]: shape (3,) != eager (3, 3)
"""
import torch

EXPECT = """
fires: write_back_custom_op
absent: higher_order.auto_functionalized_v2
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::optional_out_none_v2", mutates_args=("out",))
def op2(x: torch.Tensor, out: torch.Tensor | None) -> torch.Tensor:
    if out is not None:
        n = out.shape[0]
        for i in range(n):
            out[i] = x[n - 1 - i]
    return x * 2


@op2.register_fake
def _op2_fake(x, out):
    return torch.empty_like(x)


def fn(x0):
    r1 = op2(x0, None)
    return r1


def inputs():
    return (torch.randint(-4, 5, (3, 3)).float(),)
