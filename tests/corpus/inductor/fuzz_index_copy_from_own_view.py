"""`v[:5].index_copy_(1, idx, v)` where `v` is a one-column view of the input: the source is the
memory written.  After the rules, the index_put works on a materialized copy that is also its
values, and Inductor's reinplacing makes it `index_put_(m, idx, m)`: Inductor reads the values
as the functional op does, ATen refuses the overlap.  The eager base reads such an operand into a
copy before the op (`rewrite fuzz --seed 0 --n 1500` program 857 raised "some elements of the
input tensor and the written-to tensor refer to a single memory location")."""
import torch

EXPECT = """
fires: reinplace_update_into_input
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0):
    v1 = x0[:, 1:][:, :1]
    v1[:5].index_copy_(1, torch.tensor([0]), v1)


def inputs():
    return (torch.randint(-4, 5, (5, 3)).float(),)
