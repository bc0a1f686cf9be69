"""A custom op writes `out = x0[:2][:, 1]` (a column) and `scratch = x0[2, 1:3]` (a row) of one
input and reads `x = x0[1, 1:3]` (`rewrite fuzz --seed 0` program 2753, minimized), under v2 and
dynamic shapes.  Functionalization names where `scratch` sits by `sym_storage_offset` of the
program's view, and stock Inductor computes that offset wrong for a view of an input: the call
writes other elements (stock wrong, aot_eager right).  The write-back refuses (an `as_strided`
view of symbolic addresses), `copy_arguments_sharing_written_memory` copies the read argument,
and the backend names the offset by its expression over the size symbols, `2*s + 1`
(`rewrite/analysis/inductor/symbolic_offsets.py`, named in `Report.repairs`).  Static shapes have
constant offsets and nothing to repair, so the case runs with dynamic shapes only.
v2."""
import torch

EXPECT = """
absent: aten.sym_storage_offset
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = True
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::p2753_out_and_scratch_v2", mutates_args=("out", "scratch"))
def reverse_add(out: torch.Tensor, scratch: torch.Tensor, x: torch.Tensor) -> None:
    n = out.shape[0]
    for i in range(n):
        scratch[i] = x[n - 1 - i]
    for i in range(n):
        out[i] = scratch[i] + x[i]


@reverse_add.register_fake
def _reverse_add_fake(out, scratch, x):
    return None


def fn(x0):
    reverse_add(x0[:2][:, 1], x0[2, 1:3], x0[1, 1:3])


def inputs():
    return (torch.randint(-4, 5, (3, 3)).float(),)
