"""A `scatter_` into a slice of an input, a `while_loop` that writes a captured input, then
`x3[:, 0][idx] = x3[3]` (`rewrite fuzz --seed 0` program 4307, minimized).  On the Inductor base
the `index_put`'s lazily computed source reads, inside the copy-back's loop, what Inductor's
reinplacing of the `select_scatter` writes (dynamic shapes): a lowering hazard no private copy
removes here, so the compile stops and the graph runs eagerly (stock Inductor is wrong).  On the eager base the
graph runs op by op: nothing is inlined, there is no lowering hazard, and the engine stopped only
because its lowering model did not know the base.  Now the model is off on the eager base
(`LoweringModel(lowered=False)`): it compiles, no fallback.  With static shapes the Inductor base
compiles the program without a stop, so the case runs dynamic only: its `warns` lines hold there."""
import torch

EXPECT = """
matches_eager exact
inductor
warns: could not be prevented on inductor
warns: runs eagerly instead on inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = True


def fn(x0, x1, x2, x3):
    x0.view(-1)[3:-11].scatter_(0, torch.tensor([0]), x2[4, 1:2])
    x2.narrow(0, 2, 1)[:, 0].add_(-x2[3, :1])

    def cond_fn_1(i, acc):
        return i < 3

    def body_fn_1(i, acc):
        x1[:, 2:-2].add_(0.5)
        return i + 1, acc + x1.sum()

    i1, acc1 = torch.while_loop(cond_fn_1, body_fn_1, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    x3[:, 0][torch.tensor([-5, 2, 4])] = x3[3]
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5, 5)).float()
    base1 = torch.randint(-4, 5, (10, 3)).float()
    return base0[0:3], base0[2:5], base1[0:5], base1[5:]
