"""On dynamic shapes, a `cond` branch updates two elements of a view of a diagonal of a captured
tensor with `index_put`.  Inside the branch, Inductor's reinplacing would write the update into
the branch's input; the repair gives it a private copy.  The judge must then see that the chain
of scatters back into the diagonal is one write: composing the views' maps needs them as
symbolic sizes of the shape environment, not as bare expressions (`rewrite fuzz --seed 0 --n
1500` program 431 stopped with "already works on a private copy")."""
import torch

EXPECT = """
fires: privatize_for_inductor
matches_eager exact
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1, x2):
    v1 = x1.diagonal(1)
    def true_fn_4(p):
        v1[1:][:2][torch.tensor([0, 1])] = x2[0, 2:4].flip(0)
        return p + 1
    def false_fn_4(p):
        return p.clone()
    r4 = torch.cond(v1.sum() > 0, true_fn_4, false_fn_4, (x1,))
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 8)).float()
    return torch.randint(-4, 5, (3, 5)).float(), base0[:, 0:4]
