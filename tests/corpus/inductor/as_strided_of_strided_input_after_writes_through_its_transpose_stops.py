"""The twin of `as_strided_of_input_after_writes_through_its_transpose.py` on `x = base[:, :3]`,
an input that does not fill its storage: the program's `x.as_strided(...)` addresses the storage
of `base`, which no fresh tensor of the functional graph stands for.  Inductor's reinplacing
would not write the chain into `x` (the `as_strided` reads it after the scatter), so the engine
stops the compile and the graph runs eagerly (values right)."""
import torch

EXPECT = """
warns: the functional form addresses other elements than the program did
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x):
    x.diagonal().add_(1)
    x.transpose(0, 1)[:, 1:] = x.transpose(0, 1)[:, :-1].clone()
    return x.as_strided((2, 2), (1, 3), 1) * 1


def inputs():
    return (torch.randint(-4, 5, (3, 4)).float()[:, :3],)
