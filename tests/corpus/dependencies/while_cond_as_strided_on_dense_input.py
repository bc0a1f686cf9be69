"""The loop of `while_cond_as_strided_on_input_at_storage_offset` on a tensor that fills its
storage from offset 0: its private copy inside the loop is laid out as it is, so the
dependency threads the loop's write as carried state (stock Inductor would lose the
condition's write)."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x0):
    def cond_fn(i):
        x0.as_strided((3,), (2,), 1).add_(1.0)
        return i < 2

    def body_fn(i):
        return (i + 1,)

    (n,) = torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64),))
    return n


def inputs():
    return (torch.arange(10.0),)
