"""`a.copy_(b)` then `b[1:].add_(1)`: a must get b's value from before the update.  After
Inductor's joint-graph passes the copy into a reads b directly, and the copy-back epilogues put
that read after the scatter: an old-value read between the scatter and b's copy-back.  Writing
the scatter into b early would give a the new values, so the rule must refuse (at `safe`)."""
import torch

EXPECT = """
rejects: reinplace_update_into_input at safe because alias_used_between(arg1_1, slice_scatter, copy__1) is true
present: aten.slice_scatter
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(a, b):
    a.copy_(b)
    b[1:].add_(1.0)


def inputs():
    return torch.randn(6), torch.randn(6)
