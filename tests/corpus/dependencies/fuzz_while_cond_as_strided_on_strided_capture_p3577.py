"""A `while_loop` condition writes a captured input through `x0.as_strided((5,), (2,), 0)`, and
the input is a strided view (`base[:, ::2]`: its storage has gaps).  Threaded as carried state,
the input would enter the loop as a private contiguous copy, where the same `as_strided`
addresses other elements (base elements 0, 2, 4, 6, 8 are `x0[0, 0..2]`, `x0[1, 0..1]`; in the
copy they are `x0[0, 0]`, `x0[0, 2]`, `x0[1, 1]`, `x0[2, 0]`, `x0[2, 2]`): 4 elements of the
input came out wrong (`rewrite fuzz --seed 0 --n 5000` program 3577, rewrite only, dynamic
shapes; stock right).  The dependency now declines when the loop's functions address storage
and a written tensor does not fill its storage contiguously from offset 0
(`hop_actions._check_copies_address_alike`); `fallback compiler` leaves the loop to torch."""
import torch

EXPECT = """
rejects: while_loop_captured_mutations at rewrite because address storage
warns: left to the compiler
matches_eager exact
inductor
"""
MODE = "inference"
CALLS = 3
DYNAMIC = "both"


def fn(x0, x1):
    def cond_fn_1(i, acc):
        x0.as_strided((5,), (2,), 0).index_put_((torch.tensor([4, 1, 1]),), torch.tensor(3.0), accumulate=True)
        return i < 1

    def body_fn_1(i, acc):
        return i + 1, acc + x0.sum()

    i1, acc1 = torch.while_loop(cond_fn_1, body_fn_1, (torch.zeros((), dtype=torch.int64), torch.zeros(())))
    return acc1


def inputs():
    base0 = torch.randint(-4, 5, (5, 6), generator=torch.Generator().manual_seed(0)).float()
    return base0[:, ::2], torch.zeros(7)
