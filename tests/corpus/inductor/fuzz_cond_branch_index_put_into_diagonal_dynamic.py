"""On dynamic shapes, a `cond` branch updates two elements of a view of a diagonal of a captured
tensor with `index_put`.  The dependency rule makes the captured tensor a branch output; each
branch works on a copy of it that Inductor cannot drop (`rewrite::materialized_copy`), so the
update goes into that copy and needs no further repair.  Until fuzz p3501 the copy was a `clone`
that Inductor's joint passes removed, Inductor's reinplacing would then have written into the
branch's input, and `privatize_for_inductor` repaired it (`rewrite fuzz --seed 0 --n 1500`
program 431); that path is now `fuzz_cond_branch_index_put_into_own_copy_dynamic`."""
import torch

EXPECT = """
fires: cond_captured_mutations
matches_eager exact
inductor
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
