"""The `as_strided` write of `fuzz_while_cond_as_strided_on_strided_capture_p3577` on a captured
input that is contiguous but starts at storage offset 2 (`base[2:]`): its private copy inside
the loop starts at 0, so the same addresses are other elements.  The dependency declines (it
threaded the loop before this input's layout was checked for such functions), and the same
loop on a tensor that fills its storage is still threaded
(`while_cond_as_strided_on_dense_input`)."""
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


def fn(x0):
    def cond_fn(i):
        x0.as_strided((3,), (2,), 1).add_(1.0)
        return i < 2

    def body_fn(i):
        return (i + 1,)

    (n,) = torch.while_loop(cond_fn, body_fn, (torch.zeros((), dtype=torch.int64),))
    return n


def inputs():
    return (torch.arange(12.0)[2:],)
