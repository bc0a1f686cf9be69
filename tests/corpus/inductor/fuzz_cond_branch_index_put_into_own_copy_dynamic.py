"""On dynamic shapes, a `cond` branch copies its operand and updates two elements of a view of a
diagonal of the copy with `index_put`.  Inductor's joint passes drop the copy (a `clone` whose
result is not returned), so inside the branch its reinplacing would write the update into the
branch's input; the repair gives it a private copy.  The judge must then see that the chain of
scatters back into the diagonal is one write: composing the views' maps needs them as symbolic
sizes of the shape environment, not as bare expressions (`rewrite fuzz --seed 0 --n 1500`
program 431 stopped with "already works on a private copy"; there the branch wrote a captured
tensor, whose branch copy Inductor can no longer drop since fuzz p3501)."""
import torch

EXPECT = """
fires: privatize_for_inductor
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x1, x2):
    def true_fn_4(p):
        q = p.clone()
        q.diagonal(1)[1:][:2][torch.tensor([0, 1])] = x2[0, 2:4].flip(0)
        return q + 1
    def false_fn_4(p):
        return p.clone()
    return torch.cond(x1.diagonal(1).sum() > 0, true_fn_4, false_fn_4, (x1,))


def inputs():
    base0 = torch.randint(-4, 5, (4, 8)).float()
    return torch.randint(-4, 5, (3, 5)).float().abs() + 1, base0[:, 0:4]
