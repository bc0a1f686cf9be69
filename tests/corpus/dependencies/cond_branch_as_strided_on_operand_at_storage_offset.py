"""A `cond` branch writes its operand through `x.as_strided((3,), (2,), 1)`, and the operand is
contiguous but starts at storage offset 2 (`base[2:]`).  Rewritten, each branch would work on
a private contiguous copy at offset 0, where the same addresses are other elements; the
dependency declines when the branches address storage and a written operand does not fill its
storage contiguously from offset 0 (`hop_actions._check_copies_address_alike`), and
`fallback compiler` leaves the `cond` to torch's functionalization of its operands."""
import torch

EXPECT = """
rejects: cond_captured_mutations at rewrite because address storage
warns: left to the compiler
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x):
    def true_fn(x):
        x.as_strided((3,), (2,), 1).add_(1.0)
        return x.sum()

    def false_fn(x):
        return x.sum() * 0

    return torch.cond(x.sum() > 0, true_fn, false_fn, (x,))


def inputs():
    return (torch.arange(12.0)[2:],)
