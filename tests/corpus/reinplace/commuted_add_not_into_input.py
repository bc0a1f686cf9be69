"""Where `d + x` must stay: its value is returned (read after the copy-back), the sum is broadcast
beyond `x`'s shape, promoted to another dtype, or `x` is written between the sum and its
copy-back.  `commuted_add_into_input` fires nowhere, and the program is right."""
import torch

EXPECT = """
not fires: commuted_add_into_input
matches_eager exact
"""
MODE = "inference"
CALLS = 3


def fn(x, d, wide, small, i):
    y = d + x
    x.copy_(y)                      # y returned: read after the copy-back
    s = wide + small                # broadcast: (3, 4) + (4,) copied into (4,) is not possible,
    small.copy_((wide + small)[0])  # so the copy reads a view of a wider sum instead
    z = d.double() + i              # promoted to float64, copied back into a float32 input
    i.copy_(z)
    return y, s


def inputs():
    return (torch.arange(4.0), torch.ones(4), torch.arange(12.0).reshape(3, 4), torch.arange(4.0),
            torch.arange(4.0) * 0.1)
