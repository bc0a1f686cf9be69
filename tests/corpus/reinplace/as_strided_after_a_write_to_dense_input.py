"""The program of `inductor/as_strided_after_a_write_to_input_at_storage_offset` on an input that
starts and fills its storage: the fresh `slice_scatter` that stands for `x` is laid out as `x`,
so the functional `as_strided` addresses the elements the program's does, and the graph is
rewritten as any other (the check that leaves the offset case to Inductor does not take this
one with it)."""
import torch

EXPECT = """
fires: reinplace_update_into_input
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, y):
    x[:4].copy_(x[2:6].clone())
    x.as_strided((3,), (2,), 3).mul_(y)


def inputs():
    return (torch.arange(10.0), torch.tensor([2.0, 3.0, 4.0]))
