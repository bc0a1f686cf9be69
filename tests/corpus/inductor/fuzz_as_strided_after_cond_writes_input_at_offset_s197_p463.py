"""After a `cond` branch writes `x1` (a row range at storage offset 1), the program reads and
writes `x1.as_strided((2,), (1,), 2)` (`rewrite fuzz --seed 197` program 463, minimized).
`cond_captured_mutations` returns the branch's new value of `x1` and copies it back with
`x1.copy_(new)`; AOTAutograd's graph then reads `as_strided(copy(x1, new), ..., 2)`, storage
offset 2 of `x1`'s memory.  Inductor's noop removal made `copy(x1, new)` the fresh `new`, laid out
from offset 0, so the `as_strided` read and wrote other elements: both bases and the rules-free
pipeline were wrong (stock raised on the branches' storage offsets, aot_eager right).  The joint
pass records which input each storage-addressing node reaches through an update
(`layout_maps.record_inputs_addressed`); where a pass dropped that update, the engine stops and
the graph runs eagerly."""
import torch

EXPECT = """
fires: cond_captured_mutations
warns: runs eagerly instead
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    x1.unsqueeze(-1)[2:6][torch.tensor([2]), torch.tensor([0])] = (x0[0, :1] + 1).to(torch.float32)

    def true_fn_1(p):
        return p.clone()

    def false_fn_1(p):
        return p.clone()

    r1 = torch.cond(x1.sum() > 0, true_fn_1, false_fn_1, (x1,))

    def true_fn_3(p):
        return p + 1

    def false_fn_3(p):
        x1[5:-2].add_(1.0)
        return p - 1

    r3 = torch.cond(r1.sum() > 0, true_fn_3, false_fn_3, (x0,))
    x1.as_strided((2,), (1,), 2)[torch.tensor([-2])] = r3[1, 3:4].to(torch.float32)


def inputs():
    base0 = torch.randint(-4, 5, (11,)).float()
    return torch.randint(-4, 5, (3, 4)).int(), base0[1:9]
