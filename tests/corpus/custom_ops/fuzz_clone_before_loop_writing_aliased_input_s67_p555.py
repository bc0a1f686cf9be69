"""`o2 = x0.clone()`, then a `while_loop` whose condition writes `x1[1]` (`x1 = x0[1:3]`, an aliased
input) and whose body writes `x0[3:5]` (`rewrite fuzz --seed 67` program 555, minimized).  The
dependency rule leaves the loop to the compiler (its inputs share memory), so it reaches the
post-grad passes as an `auto_functionalized_v2` of the `while_loop`, which Inductor writes in
place.  It lowers the loop as calls of its functions, not as an extern kernel, and computes the
lazily read `clone` where the output uses it, after the loop: stock Inductor returned `o2` with
the loop's writes (aot_eager right).  The simulation of Inductor's reinplacing now takes any value
read before such a call and consumed after it as a hazard of the call, and
`materialize_reads_before_call_for_inductor` computes it first."""
import torch

EXPECT = """
fires: materialize_reads_before_call_for_inductor on inductor
not fires: materialize_reads_before_call_for_inductor on eager
matches_eager atol=1e-05 rtol=1e-05
inductor
warns: left to the compiler
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1, x3):
    o2 = x0.clone()

    def cond_fn_3(i, acc):
        x1[1] = -2.0
        return i < 2

    def body_fn_3(i, acc):
        x0[3:5].add_(x0[2:4].tanh())
        return i + 1, acc + x3.sum()

    i3, acc3 = torch.while_loop(cond_fn_3, body_fn_3, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return o2, acc3


def inputs():
    base0 = torch.randint(-4, 5, (7,)).float()
    base1 = torch.randint(-4, 5, (7, 5)).float()
    return base0, base0[1:3], base1[3:7]
