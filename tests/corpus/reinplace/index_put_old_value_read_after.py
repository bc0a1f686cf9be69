"""`old = x.clone(); x.index_put_((i,), v); return old + 1`: Inductor's noop removal turns
the clone into x itself, so the old value is read after the indexed update.  Written in place,
`old + 1` would see the new rows: the rule stops at `safe`."""
import torch

EXPECT = """
rejects: reinplace_update_into_input at safe because alias_used_between
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, i, v):
    old = x.clone()
    x.index_put_((i,), v)
    return old + 1


def inputs():
    return torch.arange(8.0), torch.tensor([1, 5]), torch.tensor([-1.0, -2.0])
