"""Two v2 custom ops: one writes the strided input `x2`, the next writes its last row reading row 2
(`rewrite fuzz --seed 0` program 2407, minimized).  The rules give the calls a private copy of `x2`
(the second reads what it writes); the second call's view of that copy is named by
`sym_storage_offset`, and the backend's offset repair (stock Inductor computes the offset of a view
of an input wrong) replaced it by the expression its fake value gave: a value still laid out like
the input, so the call's `as_strided` fell outside the copy (`setStorage: ... out of bounds`; the
rules-free pipeline and aot_eager right).  The repair now names only offsets of views that live in
an input's own storage.  On the Inductor base stock Inductor and rewrite were both wrong: the
second call's view is of the first call's new value of `x2`, which Inductor makes `x2` itself (or a
copy keeping its layout), and stock computes its `sym_storage_offset` wrong like that of a view of
an input; the repair names that offset too.  Static, every backend is right, so the case runs with
dynamic shapes (where the offsets are symbols) only."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = True
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::p2407_running_sum", mutates_args=("x",))
def running_sum(x: torch.Tensor) -> None:
    for i in range(1, x.shape[0]):
        x[i] = x[i] + x[i - 1]


@running_sum.register_fake
def _(x):
    return None


@torch.library.custom_op("corpus::p2407_add_reversed", mutates_args=("x",))
def add_reversed(x: torch.Tensor, y: torch.Tensor) -> None:
    n = x.shape[0]
    for i in range(n):
        x[i] = x[i] + y[n - 1 - i]


@add_reversed.register_fake
def _(x, y):
    return None


def fn(x2):
    running_sum(x2)
    add_reversed(x2[-1], x2[2])


def inputs():
    base1 = torch.randint(-4, 5, (4, 6)).float()
    return (base1[:, 3:],)
