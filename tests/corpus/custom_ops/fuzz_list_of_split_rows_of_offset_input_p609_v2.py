"""A custom op writes `list(x[:, 0][:, 1:].split(1))`, two rows of a view of an input that is a
block of a larger tensor (`rewrite fuzz --seed 0` program 609, minimized).  Under symbolic
shapes functionalization names the rows' storage offsets by `sym_storage_offset` of the views
the program made, and Inductor's `as_strided` over those offsets addresses both rows at the
input's own start: stock Inductor is wrong, aot_eager right.  The call is written back in place
on the program's own views (the first row is the leading piece of `x[:, 0][:, 1:]`, which
shares its offset).  Two facts made it possible: `getitem(split(x), i)` is a view of `x`
(`split`'s schema returns `Tensor(a)[]`, which torch 2.13 prints `List[Tensor]`: it was taken
for a tensor of its own), and an `as_strided` view of a contiguous input at a storage offset has
a map in the input's coordinates where it provably lies inside it.
v2: with symbolic shapes the call is written back (the v1 case checks that it fires); with static
ones the offsets are numbers, stock Inductor is right, and the call stays functional
(`write_back` does not address storage of an input at an offset)."""
import torch

EXPECT = """
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"
AUTO_FUNCTIONALIZED = "v2"


@torch.library.custom_op("corpus::p609_add_previous_v2", mutates_args=("xs",))
def add_previous(xs: list[torch.Tensor]) -> None:
    for j, t in enumerate(xs):
        p = xs[j - 1].flatten()
        for i in range(t.shape[0]):
            t[i] = t[i] + p[i % p.numel()]


@add_previous.register_fake
def _add_previous_fake(xs):
    return None


def fn(x):
    rows = x[:, 0][:, 1:]
    add_previous(list(rows.split(1)))


def inputs():
    base = torch.randint(-4, 5, (3, 3, 3)).float()
    return (base[1:3],)
