"""`x2.as_strided((5,), (1,), 3).index_put_(...)` on `x2 = base0[:, 3:]`, which starts at storage
offset 3 and is strided: eagerly, the write addresses the base's storage (`x2[0]` and two
elements of `x1`, the other half of the base).  AOTAutograd's `as_strided_scatter(x2, ...)`
addresses a dense copy of `x2` instead, so the functional graph is not the program; Inductor's
in-place write is.  Inductor would compute the update's source lazily inside that write, so the
judge of its reinplacing called the decision unsafe, and the repair gave the scatter a private
copy: the write then landed at the copy's elements 3-7, the functional result (`rewrite fuzz
--seed 0` program 445, rewrite wrong, the rules-free pipeline right).  A private copy of such a
scatter's base is now refused by the legality check, and a decision on it that no copy of the
source repairs is left to Inductor."""
import torch

EXPECT = """
not fires: privatize_for_inductor
not fires: reinplace_scatter_into_intermediate
matches_eager exact
inductor
"""
MODE = "training"
CALLS = 3
DYNAMIC = "both"


def fn(x1, x2, w5):
    t1 = w5 * 3
    x1[torch.tensor([1, 0, 2])] = t1.t()[1:4, 2:5].detach()
    x2.as_strided((5,), (1,), 3).index_put_((torch.tensor([1, 2]),), x2[1, :2])
    return None


def inputs():
    base0 = torch.randint(-4, 5, (4, 6)).float()
    return base0[:, 0:3], base0[:, 3:], torch.randint(-3, 4, (5, 4)).float().requires_grad_()
