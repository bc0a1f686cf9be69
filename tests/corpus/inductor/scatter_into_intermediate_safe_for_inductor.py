"""`t = x * 2; t[idx] = v`: an indexed update of an intermediate, which no rule here writes in
place but Inductor's own reinplacing does.  Nothing reads the old `t` and the values do not
read `t`, so the simulated decision is safe and no repair rule fires."""
import torch

EXPECT = """
rejects: privatize_for_inductor at where because inductor_reinplace_unsafe
rejects: materialize_source_for_inductor at where because inductor_reinplace_reads_own_source
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, idx, v):
    t = x * 2
    t[idx] = v
    return t


def inputs():
    return torch.arange(12.0).reshape(6, 2), torch.tensor([1, 4]), torch.full((2, 2), 7.0)
