"""`c = x.clone(); op(c); return c` where `op` is a running sum over rows and `x = base[1:6]`
sits at storage offset 5 (`rewrite fuzz --seed 0` program 495, minimized; the 198031 family).
Inductor's noop removal merges the clone into the input, so the call writes a graph input that
nothing copies back; Inductor clones it, but its decomposition traces the clone with the example
value of the tensor the program wrote (the clone, at offset 0) and copies the input from offset 0
of its storage: the rows before it.  Stock Inductor is wrong on every element but the first row,
aot_eager right.  `copy_inputs_a_call_writes` gives the call a copy of its own (one copy, as
stock's clone), v1."""
import torch

EXPECT = """
fires: copy_inputs_a_call_writes
present: rewrite.materialized_copy count=1
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::p495_running_sum_v1", mutates_args=("x",))
def running_sum(x: torch.Tensor) -> None:
    for i in range(1, x.shape[0]):
        x[i] = x[i] + x[i - 1]


@running_sum.register_fake
def _running_sum_fake(x):
    return None


def fn(x):
    c = x.clone()
    running_sum(c)
    return c


def inputs():
    base = torch.randint(-4, 5, (6, 5)).float()
    return (base[1:6],)
