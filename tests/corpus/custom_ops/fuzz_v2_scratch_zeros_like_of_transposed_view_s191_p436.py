"""A v2 op writes `x2.narrow(1, 2, 1)[:-1]` of a transposed input and a `zeros_like` of it
(`rewrite fuzz --seed 191` program 436, minimized).  The scratch buffer is `full((1, 1, 3))`
faked with strides `(1, 1, 1)`.  The engine laid out every computed tensor a v2 call writes as
faked (`operand_layouts._require_written_memory_layouts`), and Inductor's scheduler failed on the
forced `full` (KeyError in `compute_ancestors`; the compile fell back, values right; stock
compiled it).  A tensor made from nothing and faked contiguous is now left as it is: Inductor
allocates it contiguous anyway."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::s191_p436_residual_update", mutates_args=("x", "residual"))
def op2(x: torch.Tensor, residual: torch.Tensor) -> None:
    for i in range(x.shape[0]):
        residual[i] = residual[i] + x[i]
        x[i] = residual[i] * 2


@op2.register_fake
def _op2_fake(x, residual):
    return None


def fn(x2):
    b2 = torch.zeros_like(x2.narrow(1, 2, 1)[:-1])
    op2(x2.narrow(1, 2, 1)[:-1], b2)
    return None


def inputs():
    return (torch.randint(-4, 5, (3, 3, 2)).float().transpose(0, 2),)
