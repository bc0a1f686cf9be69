"""A custom op writes `list(x.split(1))`, the rows of an input that is a column block of a larger
tensor (`rewrite fuzz --seed 3` program 19, minimized: a training program whose other inputs
and statements did not matter).  Under dynamic shapes the rows sit at symbolic storage offsets
(the input's row stride is a symbol), so the write-back cannot prove them disjoint and leaves
the call functional.  Inductor's decomposition then clones each row by `clone_preserve_strides`,
which addresses the clone by the row's `sym_storage_offset`, and Inductor's code puts the clones
of rows 1 and 2 at offset 0: the op adds the wrong values (stock Inductor wrong, aot_eager
right).  `copy_symbolic_offset_arguments_for_inductor` gives the call a copy of each row (a
buffer at offset 0), which Inductor then writes in place: three row copies, where stock cloned
a prefix of the input's storage per row.  Static shapes have constant offsets and nothing to
repair, so the case runs with dynamic shapes only.
v1."""
import torch

EXPECT = """
fires: copy_symbolic_offset_arguments_for_inductor
present: rewrite.materialized_copy count=3
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = True
AUTO_FUNCTIONALIZED = "v1"


@torch.library.custom_op("corpus::p19_add_previous_v1", mutates_args=("xs",))
def add_previous(xs: list[torch.Tensor]) -> None:
    for j, t in enumerate(xs):
        p = xs[j - 1].flatten()
        for i in range(t.shape[0]):
            t[i] = t[i] + p[i % p.numel()]


@add_previous.register_fake
def _add_previous_fake(xs):
    return None


def fn(x):
    add_previous(list(x.split(1)))
    return x.sum()


def inputs():
    base = torch.randint(-4, 5, (3, 6)).float()
    return (base[:, 3:],)
