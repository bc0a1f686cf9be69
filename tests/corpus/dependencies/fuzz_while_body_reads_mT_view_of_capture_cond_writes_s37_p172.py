"""A `while_loop` condition doubles the transposed input `x0`, and the body sums `v3 = x0.mT[:, 2]`,
a view of it taken before the loop (`rewrite fuzz --seed 37` program 172, minimized).  Dynamo
records `x0.mT` as `getattr(x0, "mT")`, which the dependency's action did not know for a view: it
took `x0` and `v3` for aliased inputs, declined, and left the loop to stock Inductor, which lost
the writes (every element wrong; aot_eager right).  Tensor attributes that are views (`T`, `mT`,
`H`, `mH`, `real`, `imag`) are views now: `v3` is taken again inside the rewritten loop from the
carried `x0`."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    v3 = x0.mT[:, 2]
    def cond_fn_4(i, acc):
        x0.mul_(2)
        return i < 3
    def body_fn_4(i, acc):
        return i + 1, acc + v3.sum()
    i4, acc4 = torch.while_loop(cond_fn_4, body_fn_4, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return None


def inputs():
    return (torch.randint(-4, 5, (5, 4)).float().t(),)
