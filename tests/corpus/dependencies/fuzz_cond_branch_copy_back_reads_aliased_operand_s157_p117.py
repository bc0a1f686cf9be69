"""A `cond` branch updates row 1 of `x2` and then writes `x3[0, 3]`, where the caller passed
`x3 = x2.t()` (`rewrite fuzz --seed 157` program 117, minimized).  Inductor hands the branch to
the post-grad passes as a graph whose two inputs share memory; its functional reading copies all
of `x2` back after the write through `x3`, undoing it (aot_eager and the eager base wrong).  Stock
Inductor is right by luck: it computes the copied-back value inside the copy loop, after the
write.  `materialize_copy_back_source_for_inductor` computed that value into a buffer first, at
its place in the graph, before the write (`x2[3, 0]` kept its old value).  A value copy on a
graph left to Inductor is now refused where the value reads an input sharing memory with one the
graph writes (`value_copies._reads_shared_input`)."""
import torch

EXPECT = """
not fires: materialize_copy_back_source_for_inductor
rejects: materialize_copy_back_source_for_inductor at legality because sharing memory with input on inductor
warns: left to the compiler
matches_eager exact on inductor
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x2, x3):
    def true_fn(p):
        x2[1:2].add_(x2[2:3].clone())
        x3[0, 3] = 3.0
        return p.clone()

    def false_fn(p):
        return p - 1

    torch.cond(x2.sum() > -1000.0, true_fn, false_fn, (x3,))
    return None


def inputs():
    base = torch.randint(-4, 5, (4, 3)).float()
    return base, base.t()
