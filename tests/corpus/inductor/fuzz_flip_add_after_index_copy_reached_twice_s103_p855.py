"""`x0[1:3][:, 1:-2].index_copy_(...)`, then `x0.add_(x0.flip(1))`, with `x0` and `x1` one tensor and a
custom op writing an `out` buffer (`rewrite fuzz --seed 103` program 855, minimized).  Inductor
writes the index copy in place into `x0`, which leaves the two `slice_scatter`s that put it back
lazy reads of `x0`, and computes `x0 + flip(x0)` inside the loop of the copy back into `x0`: each
row's last elements read its first ones already written.  The lowering model walked the cone of
the copy back once per node: the scatter, reached first element for element (safe) through the
`add`, was not walked again when the `flip` reached it with its positions remapped.  It is now
walked once per element correspondence, the hazard is seen, and the copy's source is computed
first.  Stock Inductor wrong, aot_eager right."""
import torch

EXPECT = """
matches_eager exact
fires: materialize_copy_back_source_for_inductor on inductor
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("fuzz::p855_op2_8a1f7fe0", mutates_args=("out",))
def op2(x: torch.Tensor, out: torch.Tensor | None) -> torch.Tensor:
    if out is not None:
        n = out.shape[0]
        for i in range(n):
            out[i] = x[n - 1 - i]
    return x * 2


@op2.register_fake
def _op2_fake(x, out):
    return torch.empty_like(x)


def fn(x0, x1, x2, x3):
    x0[1:3][:, 1:-2].index_copy_(1, torch.tensor([0]), x0.t()[1:3, 2:3].clone())
    x0.add_(x0.flip(1))
    b1 = torch.empty_like(x3)
    r2 = op2(x3, b1)
    return r2


def inputs():
    base0 = torch.randint(-4, 5, (5, 4)).float()
    base1 = torch.randint(-4, 5, (3, 4)).float()
    return base0, base0, base1, base1.t()
