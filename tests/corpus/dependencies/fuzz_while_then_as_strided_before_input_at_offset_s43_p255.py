"""A `while_loop` condition writes `x0[3]`; after the loop `x0.as_strided((2,), (2,), 0)`, on an
input at storage offset 1, copies `x0[1:3]` into storage elements 0 and 2, one of them before the
input's first element (`rewrite fuzz --seed 43` program 255, minimized).  The dependency threads
`x0` through the loop as carried state, so the `as_strided` reads and writes the loop's result,
a fresh buffer at offset 0, where the program addressed `x0`'s storage.  A loop's result now
stands for its carried input (`layout_maps.functional_update_base`): the graph's functional
reading is not the program's, Inductor would not write the chain in place, and the engine stops
the compile; the graph runs eagerly.  The rules-free eager pipeline is right (Inductor's
reinplacing writes the scatter into the input's storage); stock Inductor and aot_eager lose the
write outside the input, and before this change so did rewrite on both bases."""
import torch

EXPECT = """
fires: while_loop_captured_mutations
warns: the functional form addresses other elements than the program did
warns: runs eagerly instead
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x2):
    def cond_fn(i, acc):
        x0[3] = -1.0
        return i < 2

    def body_fn(i, acc):
        return i + 1, acc + x2.sum()

    torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    x0.as_strided((2,), (2,), 0).copy_(x0[1:3].clone())
    return None


def inputs():
    base0 = torch.randint(-4, 5, (8,)).float()
    base1 = torch.randint(-4, 5, (7,)).float()
    return base0[1:6], base1[2:7]
