"""`x0.as_strided((3,), (1,), 4).index_put_(...)` on an input at storage offset 3, after
`t1 = x0.clone()`, whose element is read after the write (`rewrite fuzz --seed 0` program 2559,
minimized).  Noop removal dropped the clone, so the input is read after the
`as_strided_scatter` that stands for the write, and Inductor's reinplacing does not write it in
place: it writes through a clone of the input, which starts a storage of its own, at other
elements than the program's `as_strided` addressed.  Stock Inductor and the rules-free eager
pipeline were wrong, aot_eager right.  Such a graph is left to Inductor as it is (its functional
reading is not the program's), and the engine now stops where Inductor would not write the
scatter in place: the backend runs the graph eagerly, and says so."""
import torch

EXPECT = """
warns: the functional form addresses other elements than the program did
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x2):
    t1 = x0.clone()
    x0.as_strided((3,), (1,), 4).index_put_((torch.tensor([0, 2]),), torch.tensor(0.5, dtype=torch.float32))
    x2[:1][0].add_(t1[2, 2])
    return None


def inputs():
    base0 = torch.randint(-4, 5, (5, 3)).float()
    base1 = torch.randint(-4, 5, (5, 4)).float()
    return base0[1:4], base1[:, 1]
